"""The REST API keeps its OpenAPI contract. schemathesis generates requests for every operation
from the app's own schema, valid and invalid ones, and checks each answer: never a 5xx, only
documented status codes, the documented content type and headers, a body matching the schema.

In-process and bounded: requests go through the session's TestClient to the real app and Neo4j,
as the admin, in a workspace made for this run; at most MAX_EXAMPLES generated requests per
operation besides schemathesis' boundary cases, derandomised, so CI sends the same ones each run.
No operation is left out."""

from __future__ import annotations

import uuid

import pytest
import schemathesis
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from donto.api.main import create_app
from support import ADMIN_KEY, Api, claim

MAX_EXAMPLES = 25
SEED = 20240508
WORKSPACE = "contract-" + uuid.uuid4().hex[:12]
# Not positive_data_acceptance: some rules live outside the schema (an object is exactly one of
# entity or literal, ids must exist, valid_to after valid_from), so schema-valid requests get 422s.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

# Made at import, as parametrize needs it; the first test checks it is what the session's app serves.
# (openapi.from_asgi would start the app's lifespan a second time, a second Memory; pytest.from_fixture
# fails under pytest 9.)
schema = schemathesis.openapi.from_dict(create_app().openapi())
# Headers named here replace the generated Authorization, X-Donto-Workspace and X-Donto-Session
# (tests/test_workspaces_and_keys.py and tests/test_memory.py cover wrong ones), so requests get
# past the key check, and no header is generated that an HTTP client cannot send (non-ASCII).
schema.config.update(
    headers={"Authorization": f"Bearer {ADMIN_KEY}", "X-Donto-Workspace": WORKSPACE, "X-Donto-Session": "contract"}
)
schema.config.generation.update(max_examples=MAX_EXAMPLES, deterministic=True)
schema.config.seed = SEED

# Ids and keys that exist in WORKSPACE, by path parameter name (filled by the `seeded` fixture).
SEEDED: dict[str, list[str]] = {}


@schema.hook
def before_generate_path_parameters(context, strategy):
    """Random ids are all 404s; drawing from what exists too checks the 200 answers' bodies."""
    names = [p.name for p in context.operation.path_parameters]
    if not names:
        return strategy
    existing = st.deferred(lambda: st.fixed_dictionaries({name: st.sampled_from(SEEDED[name]) for name in names}))
    return st.one_of(strategy, existing)


@pytest.fixture(scope="module")
def seeded(client, memory):
    api = Api(client, WORKSPACE)
    text = "Ada Lovelace worked with Charles Babbage on the Analytical Engine."
    document = api.post("/v1/documents", json={"text": text, "title": "ada"}).json()["id"]
    ada, babbage = "https://example.org/people/ada", "charles babbage"  # a key with '/' goes in the path
    [premise] = api.write(
        claim(ada, "https://schema.org/colleague", babbage, evidence=[{"document_id": document, "start": 0, "end": 12}])
    )["claims"]
    [derived] = api.write(claim(ada, "worked_on", "analytical engine", derived_from=[premise["id"]]))["claims"]
    job, _ = memory.jobs.create(WORKSPACE, "extract", {"mode": "single"}, "single", "document", document, 1)
    link = api.post("/v1/identity/links", json={"a": ada, "b": babbage, "reason": "contract"}).json()["id"]
    subject = api.post("/v1/subjects", json={"name": "people/ada"}).json()["id"]  # a name with '/' goes in the path
    colleague = "https://schema.org/colleague"
    assert api.put(f"/v1/predicates/{colleague}", json={"cardinality": "many"}).status_code == 200
    memory.predicates.propose_aliases(WORKSPACE, [("colleague_of", colleague, 0.95)], "job:contract")
    understanding = api.post(
        "/v1/understandings", json={"subject_names": ["people/ada"], "text": "A mathematician.", "summary": "Ada"}
    ).json()["id"]
    episode = api.post(
        "/v1/episodes",
        json={
            "session": {"external_id": "chat/ada"},  # an external id with '/' goes in the path
            "turns": [{"external_id": "t1", "speaker": "Ada", "text": "The Engine weaves.", "metadata": {"k": 1}}],
        },
    ).json()
    SEEDED.update(
        session=["chat/ada"],
        turn_id=[episode["turns"][0]["id"]],
        ref=["people/ada", subject],
        claim_id=[premise["id"], derived["id"]],
        key=[ada, babbage],
        name=["https://schema.org/colleague"],
        alias=["colleague_of"],
        document_id=[document],
        job_id=[job],
        link_id=[link],
        understanding_id=[understanding],
    )


def test_the_contract_tested_is_the_one_served(client):
    assert client.get("/openapi.json").json() == schema.raw_schema


@schema.parametrize()
def test_every_operation_keeps_its_contract(case, client, seeded):
    kwargs = case.as_transport_kwargs(base_url=str(client.base_url))  # requests-style: adapt to httpx
    kwargs.pop("cookies", None)  # the API reads none, and none are generated
    if isinstance(kwargs.get("data"), bytes | str):
        kwargs["content"] = kwargs.pop("data")
    response = client.request(**kwargs)
    case.validate_response(response, checks=CHECKS)
