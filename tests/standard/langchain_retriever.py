"""langchain-tests' RetrieversIntegrationTests over donto.integrations.langchain.DontoRetriever, against a
running donto (DONTO_URL and DONTO_API_KEY, or the donto home, as donto.Client finds them).

The content comes first: a short chat written into DONTO_WORKSPACE (else a fresh workspace), so that the
example question has more than three items to answer it (the tests ask for k=1 and k=3 and count them).
By hand, against your own donto:  eval "$(donto env)"; .venv-standard/bin/python -m pytest tests/standard"""

from __future__ import annotations

import os
import uuid

import pytest
from langchain_tests.integration_tests import RetrieversIntegrationTests

import donto
from donto.integrations.langchain import DontoRetriever

WORKSPACE = os.environ.get("DONTO_WORKSPACE") or f"langchain-standard-{uuid.uuid4().hex[:10]}"
CHAT = [
    ("Ann", "I'm moving to Porto in June; I found a flat near the river."),
    ("Bob", "Porto is lovely in June. Which part of Porto?"),
    ("Ann", "Ribeira, by the river in Porto, close to the old town."),
    ("Bob", "Will you keep working remotely once you are in Porto?"),
    ("Ann", "Yes, I work remotely from Porto for Initech."),
    ("Bob", "Then I'll visit you in Porto in September."),
]


@pytest.fixture(scope="module", autouse=True)
def a_chat_about_porto() -> None:
    with donto.Client(workspace=WORKSPACE) as memory:
        memory.add_turns(
            session={"external_id": "standard-tests", "started_at": "2023-05-08T18:00:00Z"},
            turns=[
                {"external_id": f"standard-{i}", "speaker": who, "text": said} for i, (who, said) in enumerate(CHAT)
            ],
        )


class TestDontoRetrieverStandard(RetrieversIntegrationTests):
    @property
    def retriever_constructor(self) -> type[DontoRetriever]:
        return DontoRetriever

    @property
    def retriever_constructor_params(self) -> dict:
        return {"workspace": WORKSPACE}  # the URL and the key: from the environment, as donto.Client finds them

    @property
    def retriever_query_example(self) -> str:
        return "Where is Ann moving to?"
