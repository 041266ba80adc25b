"""For analysts in Neo4j Browser and Bloom: the guide, the style sheet and the Bloom perspective.
Public, like /docs: they hold no data and no secret (the guide only echoes the parameters it was
opened with; its queries run in Browser under the analyst's own Neo4j login). Browser fetches them
from its own origin, so they answer any origin (CORS)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from donto.analyst.guide import GUIDE_PATH, PERSPECTIVE_PATH, STYLE_PATH
from donto.analyst.service import static_text
from donto.api.deps import MemoryDep

router = APIRouter(tags=["analyst"])
OPEN = {"Access-Control-Allow-Origin": "*", "Cache-Control": "no-cache"}
Text = Annotated[str | None, Query(max_length=512)]


@router.options(GUIDE_PATH, include_in_schema=False)
@router.options(STYLE_PATH, include_in_schema=False)
@router.options(PERSPECTIVE_PATH, include_in_schema=False)
def preflight() -> Response:
    """Browser asks with `Pragma` and `Cache-Control` headers, so its fetch is preflighted."""
    allow = {"Access-Control-Allow-Methods": "GET", "Access-Control-Allow-Headers": "pragma, cache-control"}
    return Response(status_code=204, headers={**OPEN, **allow, "Access-Control-Max-Age": "600"})


@router.get(GUIDE_PATH, response_class=HTMLResponse)
def guide(
    request: Request,
    memory: MemoryDep,
    workspace: Annotated[str, Query(description="the workspace the guide's queries read")] = "default",
    claim: Annotated[str | None, Query(description="a claim id (default: each slide picks one)")] = None,
    entity: Annotated[str | None, Query(description="an entity key")] = None,
    other: Annotated[str | None, Query(description="a second entity key, for paths")] = None,
    session: Annotated[str | None, Query(description="a session's external id")] = None,
    valid_at: Text = None,
    known_at: Text = None,
) -> HTMLResponse:
    """A Neo4j Browser guide over one workspace: `:play <this URL>` in Browser. Each slide runs a
    query of cypher/ with the parameters set on the first slide."""
    values = {"claim": claim, "entity": entity, "other": other, "session": session}
    html = memory.analyst.guide(
        str(request.base_url), workspace, {**values, "valid_at": valid_at, "known_at": known_at}
    )
    return HTMLResponse(html, headers=OPEN)


@router.get(STYLE_PATH, response_class=Response, responses={200: {"content": {"text/plain": {}}}})
def style() -> Response:
    """donto's Browser style sheet (GraSS): `:style <this URL>` in Browser."""
    return Response(static_text("donto.grass"), media_type="text/plain; charset=utf-8", headers=OPEN)


@router.get(PERSPECTIVE_PATH, response_class=Response, responses={200: {"content": {"application/json": {}}}})
def bloom_perspective() -> Response:
    """A Bloom perspective for donto's graph (import it in Bloom or Aura Explore)."""
    return Response(static_text("bloom-perspective.json"), media_type="application/json", headers=OPEN)
