"""`python -m bench extract`: what extraction yields per mode against the configured LLM endpoint.

Reads a text (`--file`, or the first sessions of the first conversation of a LoCoMo file as
`speaker: text` lines) and runs the extraction engine on it in each mode, through the production
client. Prints per mode: facts, facts/s, tokens per fact (marked ~ when the endpoint reported no
usage and they were estimated), the share of facts anchored to a quote in the text, the share of
facts found again across passes (collisions / raw), objects rejected, and failed passes. Needs
DONTO_LLM_BASE_URL; measures the model as much as donto, so say which endpoint the figures are from
(and which prompts: the version printed, changed by DONTO_EXTRACTION_PROMPTS).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from bench.locomo import conversation_turns
from donto.extraction.engine import MODES, Extractor
from donto.extraction.llm import ChatClient
from donto.memorize.service import llm_config
from donto.memory import extraction_prompts
from donto.settings import Settings


def source_text(args: argparse.Namespace) -> str:
    if args.file:
        return Path(args.file).read_text(encoding="utf-8")
    conversation = json.loads(Path(args.data).read_text())[0]["conversation"]
    sessions = conversation_turns(conversation)[: args.sessions]
    return "\n".join(f"{t['speaker']}: {t['text']}" for _, _, turns in sessions for t in turns)


def run(settings: Settings, args: argparse.Namespace) -> int:
    llm = settings.llm
    if not llm.base_url:
        print("bench extract needs an LLM endpoint: set DONTO_LLM_BASE_URL (and DONTO_LLM_MODEL)")
        return 2
    text = source_text(args)
    config = llm_config(llm)
    prompts = extraction_prompts(settings)  # the built-in prompts, or DONTO_EXTRACTION_PROMPTS's file
    print(f"endpoint {llm.base_url} model {llm.model} prompts {prompts.version}; {len(text):,} characters of text")
    print("mode        facts  facts/s  tokens/fact  anchored  found again  rejected  failed passes  seconds")
    for mode in MODES if args.mode == "all" else [args.mode]:
        with ChatClient(config) as client:
            started = time.perf_counter()
            result = Extractor(client, prompts=prompts).extract(text, mode, passes=args.passes)
            seconds = time.perf_counter() - started
        facts = len(result.facts)
        raw = sum(p.raw for p in result.passes)
        usage = result.usage
        per_fact = f"{usage.total_tokens / facts:,.0f}{'~' if usage.estimated else ''}" if facts else "-"
        print(
            f"{mode:<10} {facts:>6} {facts / seconds:>8.2f} {per_fact:>12} "
            f"{result.anchored / facts if facts else 0:>9.0%} "
            f"{sum(p.collisions for p in result.passes) / raw if raw else 0:>12.0%} "
            f"{sum(p.rejected for p in result.passes):>9} "
            f"{sum(1 for p in result.passes if p.error):>9}/{len(result.passes):<4} {seconds:>8.1f}"
        )
    return 0
