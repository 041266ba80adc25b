"""What text each turn, exchange and passage is embedded as, and their one batched encoding
(shared by episode writes and `donto reembed`)."""

from __future__ import annotations

from typing import Any

from donto.embedding.encoder import Encoder


def embedding_text(speaker: str, text: str) -> str:
    """What a turn or passage is embedded as: who said it matters to questions about people."""
    return f"{speaker}: {text}"


def says_nothing(turn: dict[str, Any]) -> bool:
    """An empty or blank turn (a message with no words): kept, never embedded, so no vector arm finds it."""
    return not (turn.get("text") or "").strip()


def exchange_text(previous: dict[str, Any] | None, turn: dict[str, Any]) -> str:
    """A turn with the one before it: an answer often only makes sense with its question (an empty
    turn before it is no question)."""
    this = embedding_text(turn["speaker"], turn["text"])
    if previous is None or says_nothing(previous):
        return this
    return f"{embedding_text(previous['speaker'], previous['text'])}\n{this}"


def turn_texts(turns: list[dict[str, Any]], previous: list[dict[str, Any] | None]) -> list[str]:
    """What embed_turns encodes, in its order: each turn that says something, its exchange, then
    every passage (a text that comes twice is encoded once: a one-sentence turn is its own passage)."""
    said = [(t, before) for t, before in zip(turns, previous) if not says_nothing(t)]
    texts = [embedding_text(t["speaker"], t["text"]) for t, _ in said]
    texts += [exchange_text(before, t) for t, before in said]
    return texts + [embedding_text(t["speaker"], p["text"]) for t in turns for p in t["passages"]]


def embed_turns(encoder: Encoder, turns: list[dict[str, Any]], previous: list[dict[str, Any] | None]) -> None:
    """One batched encoding of each turn ({speaker, text, passages: [{text}]}), of its exchange with
    `previous[i]` (the turn before it, or None) and of its passages; sets `embedding` and
    `contextEmbedding` on every turn (None on one that says nothing) and `embedding` on every passage."""
    texts = turn_texts(turns, previous)
    vectors = iter(encoder.encode(texts) if texts else [])
    said = [t for t in turns if not says_nothing(t)]
    for t in turns:
        t["embedding"] = t["contextEmbedding"] = None
    for t in said:
        t["embedding"] = next(vectors)
    for t in said:
        t["contextEmbedding"] = next(vectors)
    for t in turns:
        for p in t["passages"]:
            p["embedding"] = next(vectors)
