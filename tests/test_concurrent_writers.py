"""Several clients writing to the same place at once: every acknowledged write is there exactly
once, in one order."""

from __future__ import annotations

import io
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from donto.graph.client import next_transaction_time
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


# -- transaction clocks: one per workspace ------------------------------------------------------


def _fresh(client) -> Api:
    return Api(client, "t-" + uuid.uuid4().hex[:12])


def test_a_write_in_one_workspace_commits_while_another_workspace_holds_its_clock(client, memory) -> None:
    a, b = _fresh(client), _fresh(client)
    pool = ThreadPoolExecutor(2)
    session = memory.graph.driver.session(database=memory.graph.database)
    tx = session.begin_transaction()
    try:
        held = next_transaction_time(memory.graph, tx, a.workspace)  # A's clock stays locked until commit
        other = pool.submit(b.write, claim("bee", "likes", "honey"))
        same = pool.submit(a.write, claim("ant", "likes", "sugar"))
        assert other.result(timeout=20)["claims"][0]["created"]  # B's write commits meanwhile
        assert len(b.list(subject="bee")) == 1
        time.sleep(1)
        assert not same.done()  # A's own next writer waits for A's clock
        tx.commit()
        after = same.result(timeout=30)
        assert datetime.fromisoformat(after["recorded_at"]) > held
    finally:
        if not tx.closed():
            tx.rollback()
        session.close()
        pool.shutdown()


def test_transaction_times_strictly_increase_within_each_workspace_under_concurrent_writers(client) -> None:
    workspaces = [_fresh(client), _fresh(client)]

    def write(writer: int) -> tuple[str, list[str]]:
        api = workspaces[writer % 2]
        times = [api.write(claim(f"w{writer}", "wrote", f"n{n}"))["recorded_at"] for n in range(TURNS_EACH)]
        return api.workspace, times

    with ThreadPoolExecutor(CLIENTS) as pool:
        results = list(pool.map(write, range(CLIENTS)))
    for api in workspaces:
        times = [datetime.fromisoformat(t) for ws, batch in results if ws == api.workspace for t in batch]
        assert len(set(times)) == len(times) == CLIENTS // 2 * TURNS_EACH  # no two writes share a time
        for ws, batch in results:  # each writer's later write is later
            if ws == api.workspace:
                assert batch == sorted(batch, key=datetime.fromisoformat)
        for t in times:  # as of each write's time: that write and every earlier one, no later one
            seen = api.list(known_at=t.isoformat())
            assert len(seen) == sum(1 for u in times if u <= t)


def test_a_new_workspace_clock_starts_after_the_single_clock_of_an_older_graph(client, memory) -> None:
    ahead = datetime.now(UTC).replace(microsecond=0) + timedelta(minutes=10)
    legacy = "MATCH (c:TransactionClock {name: 'donto'}) WITH c, c.last AS was SET c.last = $at RETURN was"
    [was] = memory.graph.write(lambda tx: tx.run(legacy, at=ahead).value())
    try:
        recorded = _fresh(client).write(claim("ada", "knows", "grace"))["recorded_at"]
    finally:
        memory.graph.write(lambda tx: tx.run(legacy, at=was).consume())
    assert datetime.fromisoformat(recorded) > ahead


def test_an_import_moves_the_target_workspace_clock_past_the_times_it_restored(client, memory) -> None:
    source, target, bystander = _fresh(client), _fresh(client), _fresh(client)
    source.write(claim("ada", "knows", "grace"))
    future = datetime(2099, 1, 1, tzinfo=UTC)
    memory.graph.write(
        lambda tx: tx.run("MATCH (c:Claim {workspace: $w}) SET c.txFrom = $at", w=source.workspace, at=future).consume()
    )
    backup = io.BytesIO()
    memory.portability.export(source.workspace, backup)
    memory.purges.purge(source.workspace, None, by="test")  # frees the ids for the import
    memory.portability.import_(target.workspace, io.BytesIO(backup.getvalue()))
    assert datetime.fromisoformat(target.write(claim("ada", "knows", "alan"))["recorded_at"]) > future
    assert datetime.fromisoformat(bystander.write(claim("ada", "knows", "alan"))["recorded_at"]) < future
