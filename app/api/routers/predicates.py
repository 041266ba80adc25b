"""The predicate registry: cardinality and aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from app.api.deps import MemoryDep, WorkspaceDep
from app.api.schemas.common import KEYED, WITH_BODY, errors
from app.api.schemas.predicates import PredicateIn, PredicateOut

router = APIRouter(prefix="/v1/predicates", tags=["predicates"], responses=KEYED)


# `:path` so a name may hold '/' ("https://schema.org/name"), sent as is or as %2F.
@router.put("/{name:path}", response_model=PredicateOut, responses={**WITH_BODY, **errors(409)})
def declare_predicate(
    name: Annotated[str, Path(min_length=1, max_length=512, pattern=r"\S")],
    body: PredicateIn,
    memory: MemoryDep,
    workspace: WorkspaceDep,
) -> PredicateOut:
    """Declare a predicate's cardinality ('one': a new value supersedes the old) and aliases. A name or
    alias denotes one predicate per workspace, compared exactly: one another predicate answers to is a
    409, an alias that is the predicate's own name or is listed twice a 422 (`field` names it)."""
    p = memory.predicates.declare(workspace, name, body.cardinality, list(body.aliases))
    return PredicateOut(name=p.name, cardinality=p.cardinality, aliases=p.aliases)


@router.get("", response_model=list[PredicateOut])
def list_predicates(memory: MemoryDep, workspace: WorkspaceDep) -> list[PredicateOut]:
    return [
        PredicateOut(name=p.name, cardinality=p.cardinality, aliases=p.aliases)
        for p in memory.predicates.list(workspace)
    ]
