"""What text each turn, exchange and passage is embedded as, and their one batched encoding
(shared by episode writes and `donto reembed`)."""

from __future__ import annotations

from typing import Any

from donto.embedding.encoder import Encoder


def embedding_text(speaker: str, text: str) -> str:
    """What a turn or passage is embedded as: who said it matters to questions about people."""
    return f"{speaker}: {text}"


def exchange_text(previous: dict[str, Any] | None, turn: dict[str, Any]) -> str:
    """A turn with the one before it: an answer often only makes sense with its question."""
    this = embedding_text(turn["speaker"], turn["text"])
    return f"{embedding_text(previous['speaker'], previous['text'])}\n{this}" if previous else this


def turn_texts(turns: list[dict[str, Any]], previous: list[dict[str, Any] | None]) -> list[str]:
    """What embed_turns encodes, in its order: each turn, each exchange, each passage (a text that
    comes twice is encoded once: a one-sentence turn is its own passage)."""
    texts = [embedding_text(t["speaker"], t["text"]) for t in turns]
    texts += [exchange_text(before, t) for before, t in zip(previous, turns)]
    return texts + [embedding_text(t["speaker"], p["text"]) for t in turns for p in t["passages"]]


def embed_turns(encoder: Encoder, turns: list[dict[str, Any]], previous: list[dict[str, Any] | None]) -> None:
    """One batched encoding of each turn ({speaker, text, passages: [{text}]}), of its exchange with
    `previous[i]` (the turn before it, or None) and of its passages; sets `embedding` and
    `contextEmbedding` on every turn and `embedding` on every passage."""
    vectors = iter(encoder.encode(turn_texts(turns, previous)))
    for t in turns:
        t["embedding"] = next(vectors)
    for t in turns:
        t["contextEmbedding"] = next(vectors)
    for t in turns:
        for p in t["passages"]:
            p["embedding"] = next(vectors)
