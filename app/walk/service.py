"""The premise walk: the epistemic status of claims, scoped to valid time and transaction time.
The walk itself is one Cypher query (cypher/claim_status.cypher); this module checks the inputs
and shapes its rows into reasons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from donto.claims.service import superseded_by
from donto.errors import InvalidInput
from donto.graph.client import GraphClient
from donto.temporal.scope import TimeScope
from donto.walk.limits import DEFAULT_FAN_OUT, MAX_DEPTH, MAX_IDS

UNVERIFIED = "UNVERIFIED"
POTENTIALLY_STALE = "POTENTIALLY_STALE"


@dataclass(frozen=True)
class Reason:
    claim_id: str
    depth: int
    path: list[str]
    kind: str  # superseded | retracted | corrected | expired
    by: list[str]


@dataclass(frozen=True)
class Contested:
    claim_id: str  # a premise on the walk ...
    by: list[str]  # ... and the claims that contradict it


@dataclass
class ClaimStatus:
    claim_id: str
    status: str
    reasons: list[Reason] = field(default_factory=list)
    contested: list[Contested] = field(default_factory=list)
    walked: int = 0
    truncated: bool = False
    skipped: int = 0
    time_unknown: bool = False  # the claim's valid time is words donto could not resolve


class WalkService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    def status(
        self,
        workspace: str,
        ids: Sequence[str],
        scope: TimeScope,
        max_depth: int = MAX_DEPTH,
        fan_out: int = DEFAULT_FAN_OUT,
    ) -> list[ClaimStatus]:
        if not 1 <= len(ids) <= MAX_IDS:
            raise InvalidInput(f"ask for 1 to {MAX_IDS} claims at once", field="ids")
        if not 0 <= max_depth <= MAX_DEPTH:
            raise InvalidInput(f"max_depth is between 0 and {MAX_DEPTH}", field="max_depth")
        if fan_out < 1:
            raise InvalidInput("fan_out is at least 1", field="fan_out")
        unique = list(dict.fromkeys(ids))
        rows = self.graph.read_query(
            "claim_status",
            workspace=workspace,
            ids=unique,
            **scope.params(),
            max_depth=max_depth,
            fan_out=fan_out,
        )
        walked = list(dict.fromkeys(p["id"] for row in rows for p in row["premises"]))
        replaced = superseded_by(self.graph, workspace, walked, scope)
        by_id = {row["claimId"]: _shape(row, replaced) for row in rows}
        missing = [i for i in unique if i not in by_id]
        if missing:
            self._explain_missing(workspace, list(ids), missing)
        return [by_id[i] for i in ids]

    def _explain_missing(self, workspace: str, ids: list[str], missing: list[str]) -> None:
        existing = {r["id"] for r in self.graph.read_query("claims_existing", workspace=workspace, ids=missing)}
        index = ids.index(missing[0])
        field = f"ids[{index}]"
        if missing[0] in existing:
            raise InvalidInput(f"claim {missing[0]!r} was recorded after known_at", field="known_at")
        raise InvalidInput(f"no claim {missing[0]!r} in this workspace", field=field)


def _shape(row: dict[str, Any], replaced: dict[str, list[str]]) -> ClaimStatus:
    reasons: list[Reason] = []
    contested: list[Contested] = []
    for p in sorted(row["premises"], key=lambda p: (p["depth"], p["id"])):
        trail = list(p["path"])
        if replaced.get(p["id"]):
            reasons.append(Reason(p["id"], p["depth"], trail, "superseded", sorted(replaced[p["id"]])))
        if p["retracted"]:  # a retraction that a new version made is a correction, and names it
            corrected = sorted(p["correctedBy"])
            reasons.append(Reason(p["id"], p["depth"], trail, "corrected" if corrected else "retracted", corrected))
        if p["expired"]:
            reasons.append(Reason(p["id"], p["depth"], trail, "expired", []))
        if p["contestedBy"]:
            contested.append(Contested(p["id"], sorted(p["contestedBy"])))
    return ClaimStatus(
        claim_id=row["claimId"],
        status=POTENTIALLY_STALE if reasons else UNVERIFIED,
        reasons=reasons,
        contested=contested,
        walked=row["walked"],
        truncated=row["truncated"],
        skipped=row["skipped"],
        time_unknown=row["timeUnknown"],
    )
