"""`python -m bench rankings --data FILE [--data FILE] --out FILE`: every question's ranking, written
down, so that a change meant to keep recall's behaviour (a refactor) can be checked to keep it exactly.

Each conversation (LoCoMo or REALTALK, as `bench locomo` reads them) goes into a workspace named after
the file and the conversation, once: a workspace that already holds turns is not written again
(`--fresh` writes into new ones). Every question with evidence (all categories, the adversarial
included) is recalled in process with provenance, and its top `k` items are written as keys —
`turn:<dia_id>`, `passage:<document>:<start>`, `claim:<id>` — with each item's source arm,
`replaced_by` and `corrected_by`; the median time a recall took is printed (in process: REST adds the same to any
version). `--compare BEFORE` reads an earlier file and prints every question whose ranking
differs, then how many differ; it exits 1 when any does."""

from __future__ import annotations

import argparse
import json
import uuid
from pathlib import Path
from statistics import median

from bench.common import bench_settings
from bench.locomo import sample_turns
from donto.episodes.service import NewTurn
from donto.memory import Memory
from donto.recall.render import RecallItem
from donto.recall.service import RecallRequest
from donto.settings import Settings
from donto.temporal.scope import TimeScope


def item_key(item: RecallItem) -> str:
    p = item.provenance
    if p is None:
        return f"?:{item.text[:40]}"
    if p.document_id:
        return f"passage:{p.document_id}:{p.start}"
    if p.turn_ids:
        return "turn:" + ",".join(p.turn_ids)
    return "claim:" + ",".join(p.claim_ids)


def run(settings: Settings, args: argparse.Namespace) -> int:
    suffix = f"-{uuid.uuid4().hex[:6]}" if args.fresh else ""
    rankings: dict[str, list[dict[str, str | None]]] = {}
    took: list[float] = []
    with bench_settings(settings, args.throwaway) as s, Memory(s).open() as memory:
        for data in args.data:
            for sample in json.loads(Path(data).read_text()):
                workspace = f"rankings-{Path(data).stem}-{sample['sample_id']}{suffix}"
                held = memory.graph.read_row("recall_workspace_holds", workspace=workspace)["rows"][0]
                if not held["turns"]:
                    for key, when, turns in sample_turns(sample):
                        new = [NewTurn(t["external_id"], t["speaker"], t["text"], t["occurred_at"]) for t in turns]
                        memory.episodes.write(workspace, key, when, new)
                    print(f"{workspace}: written", flush=True)
                for n, qa in enumerate(sample["qa"]):
                    if not qa.get("evidence"):
                        continue
                    request = RecallRequest(str(qa["question"]), TimeScope.now(), k=args.k, include_provenance=True)
                    result = memory.recall.recall(workspace, request)
                    took.append(result.took_ms)
                    items = result.items
                    rankings[f"{workspace.removesuffix(suffix)}#{n}"] = [
                        {
                            "key": item_key(i),
                            "source": i.source,
                            "replaced_by": i.replaced_by,
                            # code before turn corrections has no such field; None there
                            "corrected_by": getattr(i, "corrected_by", None),
                        }
                        for i in items
                    ]
                print(f"{workspace}: {len(sample['qa'])} questions", flush=True)
    Path(args.out).write_text(json.dumps(rankings, indent=0, sort_keys=True))
    print(f"{len(rankings)} rankings written to {args.out}; recall k={args.k} in process p50 {median(took):.1f} ms")
    if args.compare is None:
        return 0
    before = json.loads(Path(args.compare).read_text())
    differ = [q for q in sorted(set(before) | set(rankings)) if before.get(q) != rankings.get(q)]
    for q in differ:
        print(f"differs: {q}\n  before {before.get(q)}\n  after  {rankings.get(q)}")
    print(f"{len(differ)} of {len(rankings)} rankings differ from {args.compare}")
    return 1 if differ else 0
