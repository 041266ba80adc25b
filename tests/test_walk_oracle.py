"""Property test: the Cypher premise walk agrees with the networkx reference walk on random
derivation graphs with cycles, fan-out, retractions and supersessions at random valid and
transaction times."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from donto.graph.client import GraphClient
from donto.temporal.instants import parse_instant
from support import Api
from walk_oracle import OClaim, oracle_status

DAY0 = datetime(2024, 1, 1, tzinfo=UTC)
REGISTRY = {"ceo": ("one", ["chief"]), "likes": ("many", [])}
PREDICATES = ["ceo", "chief", "likes", "role"]


def day(n: int) -> datetime:
    return DAY0 + timedelta(days=n)


@st.composite
def scenarios(draw):
    n = draw(st.integers(3, 12))
    batches = draw(st.integers(1, 4))
    claims = []
    for i in range(n):
        start = draw(st.one_of(st.none(), st.integers(0, 12)))
        length = draw(st.one_of(st.none(), st.integers(1, 6)))
        claims.append(
            {
                "batch": min(batches - 1, i * batches // n),
                "subject": draw(st.sampled_from(["s0", "s1"])),
                "predicate": draw(st.sampled_from(PREDICATES)),
                "object": draw(st.sampled_from(["o0", "o1", "o2"])),
                "from": start,
                "to": None if length is None else (start or 0) + length,
                "derived_from": draw(st.lists(st.integers(0, n - 1), max_size=3, unique=True)),
                "supersedes": draw(st.lists(st.integers(0, n - 1), max_size=1)),
                "contradicts": draw(st.lists(st.integers(0, n - 1), max_size=1)),
            }
        )
    retract = draw(st.lists(st.integers(0, n - 1), max_size=3, unique=True))
    cycle = draw(st.one_of(st.none(), st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))))
    queries = draw(st.lists(st.tuples(st.integers(0, 20), st.integers(0, batches + 1)), min_size=1, max_size=3))
    fan_out = draw(st.sampled_from([1, 2, 64]))
    max_depth = draw(st.sampled_from([1, 3, 32]))
    return claims, retract, cycle, queries, fan_out, max_depth


@hsettings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(scenario=scenarios())
# Found by hypothesis: a power user's edge from an old claim to one recorded later must not let
# the walk see, as of the earlier time, the later claim or its premises.
@example(
    scenario=(
        [
            {
                "batch": b,
                "subject": "s0",
                "predicate": "ceo",
                "object": "o0",
                "from": None,
                "to": None,
                "derived_from": premises,
                "supersedes": [],
                "contradicts": [],
            }
            for b, premises in ((0, []), (0, []), (1, [0, 1]))
        ],
        [],
        (0, 2),
        [(0, 0)],
        1,
        3,
    )
)
def test_cypher_walk_matches_the_networkx_reference(client, settings, scenario):
    claims, retract, cycle, queries, fan_out, max_depth = scenario
    api = Api(client, "prop-" + uuid.uuid4().hex[:10])
    for name, (card, aliases) in REGISTRY.items():
        api.put(f"/v1/predicates/{name}", json={"cardinality": card, "aliases": aliases})

    model: dict[str, OClaim] = {}
    ids: dict[int, str] = {}
    tx_times = []
    for batch in sorted({c["batch"] for c in claims}):
        members = [i for i, c in enumerate(claims) if c["batch"] == batch]
        body = []
        for i in members:
            c = claims[i]
            links = {rel: [ids[j] for j in c[rel] if j in ids] for rel in ("derived_from", "supersedes", "contradicts")}
            body.append(
                {
                    "subject": c["subject"],
                    "predicate": c["predicate"],
                    "object": {"entity": c["object"]},
                    "context": f"c{i}",
                    **links,
                    **({"valid_from": day(c["from"]).isoformat()} if c["from"] is not None else {}),
                    **({"valid_to": day(c["to"]).isoformat()} if c["to"] is not None else {}),
                }
            )
        out = api.write(*body)
        recorded = parse_instant(out["recorded_at"])
        tx_times.append(recorded)
        for i, item, written in zip(members, body, out["claims"]):
            ids[i] = written["id"]
            c = claims[i]
            model[written["id"]] = OClaim(
                written["id"],
                c["subject"],
                c["predicate"],
                c["object"],
                day(c["from"]) if c["from"] is not None else None,
                day(c["to"]) if c["to"] is not None else None,
                recorded,
                None,
                item["derived_from"],
                item["supersedes"],
                item["contradicts"],
            )
    for i in retract:
        model[ids[i]].tx_to = parse_instant(api.post(f"/v1/claims/{ids[i]}/retract").json()["retracted_at"])
        tx_times.append(model[ids[i]].tx_to)
    if cycle is not None:  # only a power user's Cypher can close a cycle; do it the same way
        a, b = ids[cycle[0]], ids[cycle[1]]
        if b not in model[a].derived_from:
            with GraphClient(settings) as graph:
                graph.write(
                    lambda tx: tx.run(
                        "MATCH (a:Claim {id: $a}), (b:Claim {id: $b}) CREATE (a)-[:DERIVED_FROM]->(b)", a=a, b=b
                    ).consume()
                )
            model[a].derived_from.append(b)

    for valid_day, known_index in queries:
        k = sorted(tx_times)[min(known_index, len(tx_times) - 1)]
        v = day(valid_day)
        roots = [cid for cid, c in model.items() if c.tx_from <= k]
        response = api.post(
            "/v1/claims/status",
            json={
                "ids": roots,
                "valid_at": v.isoformat(),
                "known_at": k.isoformat(),
                "fan_out": fan_out,
                "max_depth": max_depth,
            },
        )
        assert response.status_code == 200, response.text
        for got in response.json()["statuses"]:
            want = oracle_status(model, REGISTRY, got["claim_id"], v, k, max_depth=max_depth, fan_out=fan_out)
            reasons = {(r["claim_id"], r["depth"], r["kind"], tuple(r["by"])) for r in got["reasons"]}
            contested = {(c["claim_id"], tuple(c["by"])) for c in got["contested"]}
            assert (got["status"], reasons, contested, got["walked"], got["skipped"], got["truncated"]) == (
                want["status"],
                want["reasons"],
                want["contested"],
                want["walked"],
                want["skipped"],
                want["truncated"],
            )
            for r in got["reasons"]:  # a reported path is a real walk from the root
                assert r["path"][0] == got["claim_id"] and len(r["path"]) == r["depth"] + 1
                assert all(b in model[a].derived_from for a, b in zip(r["path"], r["path"][1:]))
