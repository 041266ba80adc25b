"""`python -m bench claim-state --data FILE`: what a claim item's `state` costs a recall.

LoCoMo's `observation` facts are written as claims with no evidence (so they come back as claim
items, each needing its state), dated by their session, and every question of the conversation is
asked twice, interleaved on one store in one process: once as recall runs, once with the walk that
makes the states left out. Medians and their difference, with how many bundles held claim items."""

from __future__ import annotations

import argparse
import json
import statistics
import time
import uuid
from pathlib import Path

from bench.common import bench_settings, percentile
from bench.locomo import CATEGORIES, conversation_turns
from donto.claims.models import Literal, NewClaim
from donto.memory import Memory
from donto.recall.service import RecallRequest
from donto.settings import Settings
from donto.temporal.scope import TimeScope


def run(settings: Settings, args: argparse.Namespace) -> int:
    data = json.loads(Path(args.data).read_text())[: args.conversations]
    with bench_settings(settings, args.throwaway) as s, Memory(s).open() as memory:
        with_state: list[float] = []
        without_state: list[float] = []
        bundles_with_claims = asked = 0
        walk = memory.recall.attach_states
        for sample in data:
            workspace = f"state-{sample['sample_id']}-{uuid.uuid4().hex[:6]}"
            dates = {key: when for key, when, _ in conversation_turns(sample["conversation"])}
            claims = [
                NewClaim(
                    subject=speaker.lower(),
                    predicate="noted",
                    object_literal=Literal.parse(sentence, "xsd:string"),
                    valid_from=dates[key.removesuffix("_observation")],
                )
                for key, speakers in sample["observation"].items()
                if key.removesuffix("_observation") in dates
                for speaker, items in speakers.items()
                for sentence, _ in items
            ]
            memory.claims.write(workspace, claims)
            memory.claim_embeddings.drain(workspace)
            for qa in sample["qa"]:
                if qa.get("category") not in CATEGORIES:
                    continue
                request = RecallRequest(str(qa["question"]), TimeScope.now(), k=args.k)
                for states in (True, False) if asked % 2 == 0 else (False, True):  # interleaved, either first
                    memory.recall.attach_states = walk if states else (lambda *a, **k: None)  # type: ignore[method-assign]
                    started = time.perf_counter()
                    items = memory.recall.recall(workspace, request).items
                    (with_state if states else without_state).append((time.perf_counter() - started) * 1000)
                    if states:
                        bundles_with_claims += any(i.object is not None for i in items)
                asked += 1
        memory.recall.attach_states = walk  # type: ignore[method-assign]
    on, off = statistics.median(with_state), statistics.median(without_state)
    print(
        f"recall k={args.k} over {asked} questions, {bundles_with_claims} bundles with claim items "
        f"[{memory.encoder.name}]\n"
        f"  with claim states:    p50 {on:.1f} ms, p95 {percentile(with_state, 95):.1f} ms\n"
        f"  without claim states: p50 {off:.1f} ms, p95 {percentile(without_state, 95):.1f} ms\n"
        f"  the states cost {on - off:+.1f} ms at p50 ({on / off:.2f}x)"
    )
    return 0
