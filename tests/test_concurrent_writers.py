"""Several clients writing to the same place at once: every acknowledged write is there exactly
once, in one order."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from support import Api, claim

CLIENTS = 8
TURNS_EACH = 6


def test_concurrent_appenders_to_one_session_leave_one_chain_of_turns(api: Api, memory) -> None:
    def append(client: int) -> list[int]:
        codes = []
        for n in range(TURNS_EACH):
            body = {
                "session": {"external_id": "shared"},
                "turns": [{"external_id": f"c{client}-t{n}", "speaker": f"client{client}", "text": f"turn {n}"}],
            }
            codes.append(api.post("/v1/episodes", json=body).status_code)
        return codes

    with ThreadPoolExecutor(CLIENTS) as pool:
        codes = [c for batch in pool.map(append, range(CLIENTS)) for c in batch]
    assert codes == [201] * (CLIENTS * TURNS_EACH)

    rows = memory.graph.read(
        lambda tx: tx.run(
            """MATCH (s:Session {workspace: $w, externalId: 'shared'})-[:HAS_TURN]->(t:Turn)
               WITH s, collect(t.seq) AS seqs, count(t) AS turns
               RETURN seqs, turns,
                      COUNT { (s)-[:HAS_TURN]->(:Turn)-[:NEXT]->(:Turn) } AS nexts,
                      COUNT { (s)-[:HAS_TURN]->(first:Turn) WHERE NOT ()-[:NEXT]->(first) } AS heads,
                      COUNT { (s)-[:HAS_TURN]->(t:Turn)-[:NEXT]->(u:Turn) WHERE u.seq <> t.seq + 1 } AS jumps""",
            w=api.workspace,
        ).data()
    )[0]
    total = CLIENTS * TURNS_EACH
    assert rows["turns"] == total
    assert sorted(rows["seqs"]) == list(range(total))
    assert rows["nexts"] == total - 1 and rows["heads"] == 1 and rows["jumps"] == 0


def test_concurrent_writers_of_one_content_key_get_one_claim(api: Api) -> None:
    body = claim("ada", "knows", "grace", valid_from="2020-01-01")

    def write(_: int) -> list[str]:
        return [c["id"] for c in api.write(body)["claims"]]

    with ThreadPoolExecutor(8) as pool:
        ids = {i for batch in pool.map(write, range(24)) for i in batch}
    assert len(ids) == 1
    assert len(api.list(subject="ada")) == 1
