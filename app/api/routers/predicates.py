"""The predicate registry: cardinality and aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response

from donto.api.deps import MemoryDep, WorkspaceDep
from donto.api.schemas.common import KEYED, WITH_BODY, errors
from donto.api.schemas.predicates import PredicateIn, PredicateOut

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
    return PredicateOut.of(p)


@router.get("", response_model=list[PredicateOut])
def list_predicates(memory: MemoryDep, workspace: WorkspaceDep) -> list[PredicateOut]:
    """The registry: each predicate's cardinality, aliases, who declared it, and the alias proposals
    extraction made for it that are still open."""
    return [PredicateOut.of(p) for p in memory.predicates.list(workspace)]


@router.delete("/{name:path}/proposed-aliases/{alias}", status_code=204, responses=errors(404))
def reject_proposed_alias(
    name: Annotated[str, Path(min_length=1, max_length=512)],
    alias: Annotated[str, Path(min_length=1, max_length=512)],
    memory: MemoryDep,
    workspace: WorkspaceDep,
) -> Response:
    """Reject extraction's proposal that `alias` is an alias of `name`: it is never proposed again
    (declaring the predicate with the alias still accepts it)."""
    memory.predicates.reject_alias(workspace, name, alias)
    return Response(status_code=204)
