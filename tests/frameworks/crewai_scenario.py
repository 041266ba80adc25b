"""CrewAI's memory over donto, driven by CrewAI itself: run in .venv-crewai (`make crewai-venv`) by
tests/test_integration_crewai.py against the suite's server (DONTO_URL, DONTO_API_KEY, DONTO_WORKSPACE),
never collected by the main suite. It prints one JSON report of what it saw; the test asserts on it
(CrewAI's own console output goes to stderr).

DontoMemory is used through CrewAI's Memory API (remember, recall, forget, update, list_records,
list_scopes, info), then given to a real Crew whose one Agent runs on a scripted BaseLLM (no model,
no network but donto's): the agent's task prompt carries what the crew's memory recalled, and the
task's result is kept in memory when the task ends, as CrewAI does with any Memory."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from datetime import UTC, datetime
from typing import Any

REPORT_TO = sys.stdout
sys.stdout = sys.stderr  # CrewAI prints its events' panels: the report alone goes to stdout

os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")
os.environ.setdefault("CREWAI_TRACING_ENABLED", "false")

from crewai import Agent, Crew, Task  # noqa: E402
from crewai.llms.base_llm import BaseLLM  # noqa: E402

from donto.integrations.crewai import DontoMemory  # noqa: E402

DOOR = "The Lisbon boardroom door code is 4417."
PARKING = "The Porto office parking spot is P-12."
VENDING = "The officex vending machine takes only coins."
LOCKER = "Ann's gym locker code is 9921."


PROMPTS: list[str] = []  # what the scripted LLM was asked


class ScriptedLLM(BaseLLM):
    """Answers a task from the memories in its prompt: the first door code it reads, or 'none'."""

    def call(self, messages: Any, *args: Any, **kwargs: Any) -> str:
        text = messages if isinstance(messages, str) else "\n".join(str(m.get("content", "")) for m in messages)
        PROMPTS.append(text)
        code = re.search(r"door code is (\d{4})", text)
        answer = f"The boardroom door code is {code.group(1)}." if code else "I found no door code."
        return f"Thought: I read the memories given.\nFinal Answer: {answer}"

    def supports_function_calling(self) -> bool:
        return False

    def supports_stop_words(self) -> bool:
        return False

    def get_context_window_size(self) -> int:
        return 8192


def matches(found: list[Any]) -> list[dict[str, Any]]:
    return [
        {
            "id": m.record.id,
            "content": m.record.content,
            "scope": m.record.scope,
            "score": m.score,
            "categories": m.record.categories,
            "metadata": m.record.metadata,
            "importance": m.record.importance,
        }
        for m in found
    ]


def settled(memory: DontoMemory, query: str, wanted: str, **kwargs: Any) -> list[Any]:
    """recall until `wanted` is among the contents (donto embeds a registered text at once; this is a
    guard for a slow machine, not a wait the design needs)."""
    deadline = time.monotonic() + 30
    while True:
        found = memory.recall(query, **kwargs)
        if any(wanted in m.record.content for m in found) or time.monotonic() > deadline:
            return found
        time.sleep(0.5)


def main() -> dict[str, Any]:
    report: dict[str, Any] = {}
    memory = DontoMemory()  # DONTO_URL, DONTO_API_KEY, DONTO_WORKSPACE, as donto.Client finds them
    door = memory.remember(DOOR, scope="/office/lisbon", categories=["access"], importance=0.9, metadata={"floor": 3})
    parking = memory.remember(PARKING, scope="/office/porto", categories=["parking"])
    vending = memory.remember(VENDING, scope="/officex")
    memory.remember(LOCKER, scope="/office/lisbon", source="ann", private=True)
    assert door and parking and vending
    report["door_id"], report["parking_id"], report["vending_id"] = door.id, parking.id, vending.id

    report["lisbon"] = matches(
        settled(memory, "What is the door code of the Lisbon boardroom?", DOOR, scope="/office/lisbon")
    )
    report["porto_asked_for_door"] = matches(
        memory.recall("What is the door code of the Lisbon boardroom?", scope="/office/porto")
    )
    report["office_asked_for_vending"] = matches(
        memory.recall("Which vending machine takes only coins?", scope="/office")
    )
    report["officex_asked_for_vending"] = matches(
        memory.recall("Which vending machine takes only coins?", scope="/officex")
    )
    report["everywhere"] = matches(memory.recall("door code parking spot vending machine", limit=10))
    report["parking_category"] = matches(memory.recall("door code parking spot", categories=["parking"]))
    report["locker_no_source"] = matches(memory.recall("gym locker code", scope="/office/lisbon"))
    report["locker_as_ann"] = matches(memory.recall("gym locker code", scope="/office/lisbon", source="ann"))
    report["scopes"] = memory.list_scopes("/office")
    report["root_scopes"] = memory.list_scopes()
    info = memory.info("/office")
    report["office_info"] = {"count": info.record_count, "categories": info.categories, "children": info.child_scopes}
    report["record_lisbon"] = [r.content for r in memory.list_records("/office/lisbon")]

    # forget: gone from current reads, still read as known before
    time.sleep(0.05)
    before = datetime.now(UTC)
    time.sleep(0.05)
    report["forgot"] = memory.forget(record_ids=[parking.id])
    report["porto_after_forget"] = matches(
        memory.recall("Where is the Porto office parking spot?", scope="/office/porto")
    )
    report["porto_records_now"] = [r.content for r in memory.list_records("/office/porto")]
    report["porto_records_before"] = [r.content for r in memory.list_records("/office/porto", known_at=before)]
    report["parking_record_now"] = memory.get_record(parking.id) is not None
    record_before = memory.get_record(parking.id, known_at=before)
    report["parking_record_before"] = record_before.content if record_before else None

    # update: a new revision, recalled by its new text
    memory.update(vending.id, content="The officex vending machine now takes cards.")
    report["vending_after_update"] = matches(
        settled(memory, "Which vending machine takes cards?", "cards", scope="/officex")
    )

    # a real Crew with the memory, its agent on a scripted LLM
    llm = ScriptedLLM(model="scripted")
    agent = Agent(role="Office manager", goal="Answer from memory", backstory="Knows the offices.", llm=llm)
    task = Task(
        description="Find the door code of the Lisbon boardroom.",
        expected_output="The door code.",
        agent=agent,
    )
    crew = Crew(agents=[agent], tasks=[task], memory=memory.scope("/office"))
    output = crew.kickoff()
    report["crew_answer"] = output.raw
    report["crew_prompt_had_memory"] = any("4417" in p and "Relevant memories" in p for p in PROMPTS)
    report["kept_by_crew"] = [r.content for r in memory.list_records("/office") if r.content.startswith("Task:")]

    # Agent.copy() (Crew.kickoff_for_each, train and test copy agents) rebuilds an agent-level memory
    agent_with_memory = Agent(role="Clerk", goal="g", backstory="b", llm=llm, memory=memory)
    report["agent_memory_type"] = type(agent_with_memory.memory).__name__
    report["agent_copy_memory_type"] = type(agent_with_memory.copy().memory).__name__
    crew_copy = Crew(agents=[agent], tasks=[task], memory=memory).copy()
    report["crew_copy_memory_type"] = type(crew_copy._memory).__name__

    report["reset_left"] = None
    memory.reset("/officex")
    report["reset_left"] = [r.content for r in memory.list_records("/officex")]
    memory.close()
    return report


if __name__ == "__main__":
    json.dump(main(), REPORT_TO)
    sys.exit(0)
