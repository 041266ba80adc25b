"""donto for analysts, against a real Neo4j: the Browser guide is public and holds only its
parameters, every slide's query answers on a real workspace (the stale premise marked, the
contradiction side by side, the resolved dates, the evidence), the Bloom perspective's search
phrases run, and `donto export --format graphml|json|csv` writes the claim graph as of a time and
around an entity, while the JSON-lines backup stays the default."""

from __future__ import annotations

import csv
import io
import json
import uuid

import networkx as nx
import pytest

from donto.analyst.guide import SLIDES
from donto.analyst.service import write_graph
from donto.cli import main as donto
from donto.errors import InvalidInput, NotFound
from donto.temporal.instants import parse_instant, utc_now
from support import Api, claim


@pytest.fixture(scope="module")
def seeded(client) -> dict:
    """Apple's CEO changes (ceo_of is one-valued), Jane's authority rests on the old CEO, two
    sources disagree on Apple's founding, a document is evidence, a conversation has a dated phrase."""
    api = Api(client, "analyst-" + uuid.uuid4().hex[:10])
    assert api.put("/v1/predicates/ceo_of", json={"cardinality": "one"}).status_code == 200
    doc = api.post("/v1/documents", json={"text": "Tim Cook became CEO of Apple in August 2011.", "title": "newsroom"})
    cook = api.write(
        claim(
            "apple",
            "ceo_of",
            "tim-cook",
            valid_from="2011-08-24",
            evidence=[{"document_id": doc.json()["id"], "start": 0, "end": 8}],
        )
    )["claims"][0]["id"]
    jane = api.write(claim("jane", "has_signing_authority_for", "apple", valid_from="2024-01-01", derived_from=[cook]))
    founded = api.write(claim("apple", "founded_in", "cupertino"))["claims"][0]["id"]
    api.write(claim("apple", "founded_in", "los-altos", contradicts=[founded]))
    before_ternus = api.write(claim("tim-cook", "lives_in", "palo-alto"))["recorded_at"]
    ternus = api.write(claim("apple", "ceo_of", "john-ternus", valid_from="2026-06-01"))["claims"][0]["id"]
    episode = {
        "session": {"external_id": "chat-1", "started_at": "2026-11-20T18:00:00Z"},
        "turns": [
            {"external_id": "t1", "speaker": "Maya", "text": "I ran my first half marathon last Saturday!"},
            {"external_id": "t2", "speaker": "Sam", "text": "Congrats!"},
        ],
    }
    assert api.post("/v1/episodes", json=episode).status_code == 201
    return {
        "api": api,
        "cook": cook,
        "jane": jane["claims"][0]["id"],
        "ternus": ternus,
        "before_ternus": before_ternus,
    }


def run(memory, name: str, workspace: str, **params) -> list[dict]:
    """A guide query with the parameters the guide's first slide sets (null unless given)."""
    defaults = dict.fromkeys(("claim", "entity", "other", "session", "valid_at", "known_at"))
    return memory.graph.read_query(name, workspace=workspace, **{**defaults, **params})


def test_the_guide_is_public_and_sets_only_its_parameters(client):
    response = client.get("/analyst/guide", params={"workspace": "acme", "entity": "o'brien", "valid_at": "2026-01-15"})
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "*"  # Browser fetches it from its own origin
    page = response.text
    assert page.count("<slide") == len(SLIDES) + 1
    assert ":params {workspace: &quot;acme&quot;, claim: null, entity: &quot;o&#x27;brien&quot;" in page
    assert "valid_at: &quot;2026-01-15T00:00:00Z&quot;" in page
    assert ":style http://testserver/analyst/donto.grass" in page
    for slide in SLIDES:  # each slide shows its query file, runnable
        assert f"cypher/{slide.query}.cypher" in page
    assert "Bearer" not in page and "test-admin-key" not in page


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"workspace": "no spaces"}, "workspace"),
        ({"known_at": "sometime"}, "known_at"),
        ({"entity": "x" * 600}, "entity"),
    ],
)
def test_a_bad_guide_parameter_is_a_422_naming_it(client, params, field):
    response = client.get("/analyst/guide", params=params)
    assert response.status_code == 422
    assert field in response.text


def test_browsers_preflight_of_the_guide_with_its_query_is_allowed(client):
    # Browser's :play fetch is preflighted, and the preflight carries the guide's query string.
    preflight = client.options(
        "/analyst/guide",
        params={"workspace": "acme"},
        headers={"Origin": "http://localhost:7474", "Access-Control-Request-Method": "GET"},
    )
    assert preflight.status_code == 204 and preflight.headers["Access-Control-Allow-Methods"] == "GET"


def test_the_style_sheet_styles_claims_as_sentences_and_trust_links_thick(client):
    response = client.get("/analyst/donto.grass")
    assert response.status_code == 200 and response.headers["access-control-allow-origin"] == "*"
    grass = response.text
    assert 'caption: "{subject} · {predicate} · {object}"' in grass
    # Browser's GraSS reader splits on ':' and ';' and has no comments: neither may appear in a value.
    for line in grass.splitlines():
        if ":" in line:
            assert line.count(":") == 1 and line.rstrip().endswith(";"), line
    blocks = dict(b.split("{", 1) for b in grass.split("}\n") if "{" in b)
    assert "shaft-width: 5px" in blocks["relationship.DERIVED_FROM "]
    assert "shaft-width: 5px" in blocks["relationship.CONTRADICTS "]


def test_slide_one_shows_a_claim_with_both_intervals(memory, seeded):
    ws = seeded["api"].workspace
    [row] = run(memory, "guide_claim_intervals", ws, claim=seeded["cook"])
    assert row["claim"] == "apple · ceo_of · tim-cook"
    assert row["validFrom"].year == 2011 and row["knownFrom"] is not None and row["knownUntil"] is None
    assert row["s"]["key"] == "apple" and row["o"]["key"] == "tim-cook"


def test_what_we_believed_then_as_known_then(memory, seeded):
    ws = seeded["api"].workspace
    now = run(memory, "guide_believed_as_of", ws, entity="apple")
    assert {r["object"] for r in now if r["predicate"] == "ceo_of"} == {"tim-cook", "john-ternus"}
    then = run(memory, "guide_believed_as_of", ws, entity="apple", valid_at="2020-01-01")
    assert {r["object"] for r in then if r["predicate"] == "ceo_of"} == {"tim-cook"}
    known = run(memory, "guide_believed_as_of", ws, entity="apple", known_at=seeded["before_ternus"])
    assert "john-ternus" not in {r["object"] for r in known}


def test_a_claims_versions_say_what_was_believed_when_across_a_correction(memory, seeded):
    api = seeded["api"]
    august = api.write(claim("ann", "lives_in", "glasgow", valid_from="2026-08-01"))["claims"][0]["id"]
    corrected = api.write(claim("ann", "lives_in", "glasgow", valid_from="2026-07-01", corrects=august))
    july = corrected["claims"][0]["id"]
    for start in (august, july, None):  # from either version, and picked when none is named
        rows = run(memory, "guide_claim_versions", api.workspace, claim=start)
        assert [r["v"]["id"] for r in rows] == [august, july], start
        old, new = rows
        assert (old["validFrom"].month, new["validFrom"].month) == (8, 7)
        assert old["believedUntil"] == new["believedFrom"] and new["believedUntil"] is None
        assert old["correctedBy"] == july and new["correctedBy"] is None and old["supersededBy"] is None
        # Relationships come as data: (start, type, end).
        assert [(s["id"], kind, e["id"]) for s, kind, e in new["links"]] == [(july, "CORRECTS", august)]
        assert old["links"] == []


def test_the_premise_walk_marks_the_stale_premise_and_draws_what_replaced_it(memory, seeded):
    ws = seeded["api"].workspace
    rows = run(memory, "guide_premise_walk", ws)  # by default: the claim with the deepest premises
    assert [(r["depth"], r["premise"], r["stale"]) for r in rows] == [
        (0, "jane · has_signing_authority_for · apple", None),
        (1, "apple · ceo_of · tim-cook", "superseded"),
    ]
    assert [c["id"] for c in rows[1]["newer"]] == [seeded["ternus"]]
    # Rows come as data: the path is [claim, relationship, claim], from the claim to its premise.
    assert [rows[1]["path"][0]["id"], rows[1]["path"][-1]["id"]] == [seeded["jane"], seeded["cook"]]


def test_contradictions_come_side_by_side(memory, seeded):
    [row] = run(memory, "guide_contradictions", seeded["api"].workspace)
    assert (row["subject"], row["predicate"], {row["one"], row["other"]}) == (
        "apple",
        "founded_in",
        {"cupertino", "los-altos"},
    )
    assert row["oneKnown"] and row["otherKnown"]


def test_two_hop_paths_connect_jane_to_tim_cook(memory, seeded):
    rows = run(memory, "guide_two_hop_paths", seeded["api"].workspace, entity="jane", other="tim-cook")
    assert rows and rows[0]["hops"] == 2
    keys = [n["key"] for n in rows[0]["path"] if isinstance(n, dict) and "key" in n and "predicate" not in n]
    assert keys == ["jane", "apple", "tim-cook"]


def test_the_conversation_slide_shows_the_resolved_date(memory, seeded):
    rows = run(memory, "guide_conversation", seeded["api"].workspace)
    assert [(r["seq"], r["speaker"]) for r in rows] == [(0, "Maya"), (1, "Sam")]
    [date] = rows[0]["dates"]
    assert date["phrase"] == "last Saturday" and str(date["from"]).startswith("2026-11-14")


def test_provenance_names_the_quoted_words_and_their_document(memory, seeded):
    [row] = run(memory, "guide_provenance", seeded["api"].workspace, claim=seeded["cook"])
    assert row["quotes"] == ["Tim Cook"] and row["sources"] == ["newsroom"]


def test_the_bloom_perspective_search_phrases_run(memory, seeded, client):
    perspective = client.get("/analyst/bloom-perspective.json").json()
    assert {c["name"] for c in perspective["categories"]} >= {"Claim", "Entity", "Turn", "Session"}
    ws = seeded["api"].workspace
    values = {
        "$workspace": ws,
        "$entity": "apple",
        "$other": "jane",
        "$date": "2020-01-01",
        "$claim": seeded["jane"],
        "$session": "chat-1",
    }
    for template in perspective["templates"]:
        params = {p["name"][1:]: values[p["name"]] for p in template["params"]}
        rows = memory.graph.read(lambda tx, t=template, p=params: tx.run(t["cypher"], **p).data())
        assert rows, template["text"]


def test_export_as_graphml_as_of_a_time_reads_back_in_networkx(memory, seeded, tmp_path):
    ws = seeded["api"].workspace
    graph = memory.analyst.claims_graph(ws, valid_at=parse_instant("2020-01-01"), known_at=utc_now())
    out = io.BytesIO()
    write_graph(graph, "graphml", out)
    back = nx.read_graphml(io.BytesIO(out.getvalue()), force_multigraph=True)
    claims = {d["caption"] for _, d in back.nodes(data=True) if d["label"] == "Claim"}
    assert "apple · ceo_of · tim-cook" in claims and "apple · ceo_of · john-ternus" not in claims
    assert "jane · has_signing_authority_for · apple" not in claims  # valid from 2024
    everything = memory.analyst.claims_graph(ws)
    assert (f"claim:{seeded['jane']}", f"claim:{seeded['cook']}", "DERIVED_FROM") in everything.edges(keys=True)
    # PageRank over entities in process (docs/tutorials/analyst.md's recipe): entities linked by the claims they share.
    mentions = nx.Graph((u, v) for u, v, kind in everything.edges(keys=True) if kind in ("SUBJECT", "OBJECT"))
    entities = nx.bipartite.projected_graph(mentions, [n for n in mentions if n.startswith("entity:")])
    assert max(nx.pagerank(entities).items(), key=lambda kv: kv[1])[0] == "entity:apple"


def test_export_around_an_entity_keeps_what_lies_within_its_hops(memory, seeded):
    ws = seeded["api"].workspace
    one = memory.analyst.claims_graph(ws, around="jane", hops=1)
    assert {n for n in one if n.startswith("entity:")} == {"entity:jane", "entity:apple"}
    two = memory.analyst.claims_graph(ws, around="jane", hops=2)
    assert {"entity:tim-cook", "entity:cupertino"} <= set(two)
    with pytest.raises(NotFound):
        memory.analyst.claims_graph(ws, around="nobody")
    with pytest.raises(InvalidInput):
        memory.analyst.claims_graph(ws, around="jane", hops=9)


def test_donto_export_writes_graphml_json_and_csv_and_keeps_the_backup_the_default(
    settings, seeded, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("NEO4J_URI", settings.neo4j.uri)
    monkeypatch.setenv("NEO4J_USER", settings.neo4j.user)
    monkeypatch.setenv("NEO4J_PASSWORD", settings.neo4j.password.get_secret_value())
    ws = seeded["api"].workspace
    assert donto(["export", "--workspace", ws, "--format", "graphml", "--out", str(tmp_path / "g.graphml")]) == 0
    assert nx.read_graphml(tmp_path / "g.graphml").number_of_nodes() > 5
    assert (
        donto(["export", "--workspace", ws, "--format", "json", "--around", "jane", "--out", str(tmp_path / "g.json")])
        == 0
    )
    data = json.loads((tmp_path / "g.json").read_text())
    assert {n["id"] for n in data["nodes"]} >= {"entity:jane", "entity:apple", f"claim:{seeded['jane']}"}
    assert nx.node_link_graph(data, edges="edges").number_of_edges() == len(data["edges"])
    assert donto(["export", "--workspace", ws, "--format", "csv", "--out", str(tmp_path / "csv")]) == 0
    with (tmp_path / "csv" / "relationships.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert {"source": f"claim:{seeded['jane']}", "type": "DERIVED_FROM", "target": f"claim:{seeded['cook']}"} in rows
    assert donto(["export", "--workspace", ws, "--format", "csv"]) == 2  # a folder is needed
    assert donto(["export", "--workspace", ws, "--as-of", "2020-01-01"]) == 2  # not with the backup
    capsys.readouterr()
    assert donto(["export", "--workspace", ws, "--out", str(tmp_path / "backup.jsonl")]) == 0
    header = json.loads((tmp_path / "backup.jsonl").read_text().splitlines()[0])
    assert header["format"] == "donto-workspace"
