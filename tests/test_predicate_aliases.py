"""A predicate's name and aliases denote one predicate per workspace: supersession (a claim of
cardinality 'one' supersedes claims of the same predicate or an alias of it) and extraction's
alias-to-name mapping must never depend on which of two matches is read first. A name or alias
another predicate answers to is a 409 naming the field and that predicate, an alias list at odds
with itself a 422; nothing is written when either is refused."""

from __future__ import annotations

import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from donto.graph.client import next_transaction_time
from support import Api


def declare(api: Api, name: str, cardinality: str = "one", aliases: list[str] | None = None):
    return api.put(f"/v1/predicates/{name}", json={"cardinality": cardinality, "aliases": aliases or []})


def registry(api: Api) -> dict[str, tuple[str, list[str]]]:
    response = api.get("/v1/predicates")
    assert response.status_code == 200, response.text
    return {p["name"]: (p["cardinality"], p["aliases"]) for p in response.json()}


def refused(response, status: int, field: str, *named: str) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["field"] == field, error
    for text in named:
        assert text in error["message"], error


@pytest.fixture
def ceo(api: Api) -> Api:
    assert declare(api, "ceo_of", aliases=["chief"]).status_code == 200
    return api


def test_an_alias_another_predicate_holds_is_a_conflict_naming_it(ceo: Api):
    refused(declare(ceo, "w", aliases=["boss", "chief"]), 409, "aliases[1]", "'chief'", "'ceo_of'")
    assert registry(ceo) == {"ceo_of": ("one", ["chief"])}  # w was not declared


def test_a_name_another_predicate_has_as_an_alias_is_a_conflict(ceo: Api):
    refused(declare(ceo, "chief", "many"), 409, "name", "'chief'", "'ceo_of'")
    assert registry(ceo) == {"ceo_of": ("one", ["chief"])}


def test_an_alias_that_is_another_predicates_name_is_a_conflict(ceo: Api):
    refused(declare(ceo, "z", aliases=["ceo_of"]), 409, "aliases[0]", "'ceo_of'")
    assert registry(ceo) == {"ceo_of": ("one", ["chief"])}


def test_an_alias_that_is_the_predicates_own_name_or_repeats_is_invalid(api: Api):
    refused(declare(api, "y", aliases=["y"]), 422, "aliases[0]", "'y'")
    refused(declare(api, "y", aliases=["x", "why", "x"]), 422, "aliases[2]", "'x'")
    assert registry(api) == {}


def test_a_refused_redeclaration_leaves_the_predicate_as_it_was(ceo: Api):
    assert declare(ceo, "likes", "many", ["enjoys"]).status_code == 200
    refused(declare(ceo, "likes", "one", ["enjoys", "chief"]), 409, "aliases[1]", "'ceo_of'")
    refused(declare(ceo, "likes", "one", ["likes"]), 422, "aliases[0]")
    assert registry(ceo) == {"ceo_of": ("one", ["chief"]), "likes": ("many", ["enjoys"])}


def test_declaring_the_same_definition_again_is_idempotent(ceo: Api):
    again = declare(ceo, "ceo_of", aliases=["chief"])
    assert again.status_code == 200, again.text
    assert again.json() == {
        "name": "ceo_of",
        "cardinality": "one",
        "aliases": ["chief"],
        "declared_by": "user",
        "proposed_aliases": [],
    }
    assert registry(ceo) == {"ceo_of": ("one", ["chief"])}


def test_an_alias_given_up_may_be_taken_by_another_predicate(ceo: Api):
    assert declare(ceo, "ceo_of", aliases=["chief_executive"]).status_code == 200
    assert declare(ceo, "w", aliases=["chief"]).status_code == 200
    assert declare(ceo, "chief_of", aliases=[]).status_code == 200
    assert registry(ceo) == {
        "ceo_of": ("one", ["chief_executive"]),
        "chief_of": ("one", []),
        "w": ("one", ["chief"]),
    }


def test_names_are_compared_exactly_and_per_workspace(ceo: Api, client):
    # Claims match predicates exactly, letter case included, so 'Chief' is another predicate.
    assert declare(ceo, "w", aliases=["Chief"]).status_code == 200
    other = Api(client, "t-" + uuid.uuid4().hex[:12])
    assert declare(other, "w", aliases=["chief"]).status_code == 200
    assert declare(other, "chief_executive", aliases=["ceo_of"]).status_code == 200


def test_a_name_with_a_slash_is_named_in_the_conflict(api: Api):
    assert declare(api, "https://schema.org/name", "many", ["name"]).status_code == 200
    refused(declare(api, "label", "many", ["name"]), 409, "aliases[0]", "'https://schema.org/name'")


def test_of_concurrent_declarations_claiming_one_alias_exactly_one_wins(api: Api):
    names = [f"p{i}" for i in range(8)]

    def claim_shared(name: str) -> int:
        return declare(api, name, aliases=["shared"]).status_code

    with ThreadPoolExecutor(len(names)) as pool:
        codes = list(pool.map(claim_shared, names))
    assert sorted(codes) == [200] + [409] * (len(names) - 1), codes
    [winner] = [name for name, code in zip(names, codes) if code == 200]
    assert registry(api) == {winner: ("one", ["shared"])}


def test_of_two_predicates_naming_each_other_as_alias_concurrently_exactly_one_wins(api: Api):
    for _ in range(5):
        a, b = (f"{side}-{uuid.uuid4().hex[:6]}" for side in "ab")
        with ThreadPoolExecutor(2) as pool:
            codes = list(pool.map(lambda pair: declare(api, pair[0], aliases=[pair[1]]).status_code, [(a, b), (b, a)]))
        assert sorted(codes) == [200, 409], codes
        assert sum(name in registry(api) for name in (a, b)) == 1


def test_the_check_waits_for_a_declaration_still_being_written(api: Api, memory):
    """A declaration reads the registry only once it holds the workspace's clock, so one that is
    still uncommitted is seen once it commits, never missed."""
    pool = ThreadPoolExecutor(1)
    session = memory.graph.driver.session(database=memory.graph.database)
    tx = session.begin_transaction()
    try:
        at = next_transaction_time(memory.graph, tx, api.workspace)  # holds the clock until commit
        memory.graph.run(
            tx,
            "predicate_upsert",
            workspace=api.workspace,
            name="ceo_of",
            cardinality="one",
            aliases=["chief"],
            recorded_at=at,
        )
        waiting = pool.submit(declare, api, "w", "one", ["chief"])
        time.sleep(1)
        assert not waiting.done()  # queued behind the uncommitted declaration
        tx.commit()
        refused(waiting.result(timeout=30), 409, "aliases[0]", "'ceo_of'")
    finally:
        if not tx.closed():
            tx.rollback()
        session.close()
        pool.shutdown()
    assert registry(api) == {"ceo_of": ("one", ["chief"])}
