"""The Neo4j Browser guide donto serves (`:play http://127.0.0.1:8765/analyst/guide?workspace=W`).

A guide is an HTML page of `<slide>`s; Browser makes each `<pre class="runnable">` a block that a
click puts in its editor. Every slide's query is a file of cypher/ (named here with `query=`), so
the guide shows what donto itself would run and the query-library test sees it used. The page holds
no data and no secret: only the workspace name and the parameters it was opened with, which the
first slide sets with `:params`; the queries run in Browser with the analyst's own Neo4j login."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

from donto.auth.keys import check_workspace
from donto.errors import InvalidInput
from donto.graph.queries import QueryLibrary
from donto.temporal.instants import iso, parse_instant

GUIDE_PATH = "/analyst/guide"
STYLE_PATH = "/analyst/donto.grass"
PERSPECTIVE_PATH = "/analyst/bloom-perspective.json"
# The parameters every slide may read; null lets each query pick something worth showing.
PARAMETERS = ("workspace", "claim", "entity", "other", "session", "valid_at", "known_at")
MAX_PARAMETER_LENGTH = 512


@dataclass(frozen=True)
class Slide:
    title: str
    text: str  # HTML, written here (no user data)
    query: str | None = None  # a cypher/ file shown runnable under the text


SLIDES = (
    Slide(
        "A claim and its two intervals",
        "Every statement donto holds is a <b>Claim</b> node between its subject and object "
        "<b>Entity</b>. It carries two intervals: <b>valid time</b> <code>[validFrom, validTo)</code>, when it "
        "was true in the world, and <b>transaction time</b> <code>[txFrom, txTo)</code>, when donto knew it. "
        "Nothing is overwritten: a retraction closes <code>txTo</code>. Set <code>claim</code> to pick one.",
        query="guide_claim_intervals",
    ),
    Slide(
        "What did we believe on X, as known on Y?",
        "An as-of read on both axes: the claims true on <code>valid_at</code>, as donto knew them on "
        "<code>known_at</code>. Set both to a past date to see what an agent would have been told then "
        "(<code>:param valid_at => '2026-01-15'</code>, <code>:param known_at => '2026-02-01'</code>).",
        query="guide_believed_as_of",
    ),
    Slide(
        "One claim's versions: what was believed when",
        "A claim is never edited. A <b>correction</b> (<code>CORRECTS</code>: &ldquo;sorry, it was July, not "
        "August&rdquo;) is a new version; donto believed the old one until then, so <code>believedUntil</code> "
        "closes where the new one's <code>believedFrom</code> opens, and a read as known before still gets "
        "the old one. A <b>replacement</b> (<code>SUPERSEDES</code>) says the world changed: both stay believed, "
        "each for its own valid time. Set <code>claim</code> to any version; null picks the claim corrected last.",
        query="guide_claim_versions",
    ),
    Slide(
        "Is it still safe to act on? The premise walk",
        "A claim derived from others rests on them (<code>DERIVED_FROM</code>, drawn thick). The path goes "
        "from the claim to each premise; the <code>stale</code> column marks a premise that is out of date now "
        "and the picture puts what replaced it beside it (<code>SUPERSEDES</code>, or a later value of the "
        "same subject and predicate). <code>GET /v1/claims/{id}/status</code> is the exact walk.",
        query="guide_premise_walk",
    ),
    Slide(
        "Contradictions, side by side",
        "Sources disagree. donto keeps both claims and links them with <code>CONTRADICTS</code> (drawn red); "
        "it never picks a winner. Each row is one pair with both values and whether each is still known.",
        query="guide_contradictions",
    ),
    Slide(
        "What connects two entities?",
        "Paths of one or two claims between <code>entity</code> and <code>other</code>, in either direction. "
        "Leave <code>other</code> null for everything two claims away from <code>entity</code>.",
        query="guide_two_hop_paths",
    ),
    Slide(
        "A conversation, with its dates resolved",
        "Sessions hold their turns in order. Relative dates (&ldquo;last Saturday&rdquo;, &ldquo;next "
        "month&rdquo;) are resolved against when the turn was said; <code>dates</code> shows each phrase and "
        "the range donto stored. Set <code>session</code> to a session's external id.",
        query="guide_conversation",
    ),
    Slide(
        "Where recall's items came from",
        "A recall bundle's claim items name their claims; here is each claim's evidence: the quoted span, the "
        "document or turn it is cut from (and that turn's session), and the extraction job that wrote it.",
        query="guide_provenance",
    ),
    Slide(
        "What an extraction job made of its text",
        "With an LLM endpoint, a job reads a text and states facts. Each is a <b>JobFact</b>, in the order "
        "the model stated it: <code>created</code>, <code>existing</code>, <code>corroborated</code>, "
        "<code>corrected</code> (a claim's new version) or <code>repeated</code> ones <code>BECAME</code> a "
        "claim; a <code>rejected</code> one says why (not valid JSON, an empty field, a copy of the prompt's "
        "example), and <code>why</code> says what became of a correction a fact states. The job that wrote "
        "<code>claim</code>, else the latest. <code>GET /v1/jobs/{id}/facts</code> is the same list.",
        query="guide_job_facts",
    ),
)


def cypher_string(value: str | None) -> str:
    """A value for Browser's `:params {...}` (parsed as JSON5): a JSON string or null."""
    return "null" if value is None else json.dumps(value)


def guide_parameters(workspace: str, values: dict[str, str | None]) -> dict[str, str | None]:
    """The parameters a guide sets, checked: a workspace name, instants as ISO-8601 UTC, the rest
    as given (they only ever reach Cypher as parameters)."""
    params: dict[str, str | None] = {"workspace": check_workspace(workspace)}
    for name in PARAMETERS[1:]:
        value = values.get(name)
        if value is not None and len(value) > MAX_PARAMETER_LENGTH:
            raise InvalidInput(f"at most {MAX_PARAMETER_LENGTH} characters", field=name)
        if value is not None and name in ("valid_at", "known_at"):
            try:
                value = iso(parse_instant(value))
            except ValueError as exc:
                raise InvalidInput(str(exc), field=name) from None
        params[name] = value or None
    return params


def render_guide(queries: QueryLibrary, base_url: str, params: dict[str, str | None]) -> str:
    """The guide's HTML for one workspace; `base_url` is where donto is reached (for the style sheet)."""
    setup = ":params {" + ", ".join(f"{name}: {cypher_string(params.get(name))}" for name in PARAMETERS) + "}"
    style = f":style {base_url.rstrip('/')}{STYLE_PATH}"
    first = Slide(
        f"donto: workspace {html.escape(params['workspace'] or '')}",
        "This guide walks through your own memory. Run the two blocks below first (click one, then the run "
        "button or Ctrl-Enter): the first sets the parameters every slide's query reads, the second applies "
        "donto's style (claims captioned <i>subject · predicate · object</i>, premises and contradictions "
        "drawn to stand out). A parameter left <code>null</code> lets the query pick something to show. "
        "Then page through with the arrows.",
    )
    sections = [_slide(first, [setup, style])]
    sections += [_slide(s, [queries[s.query].text] if s.query else []) for s in SLIDES]
    return (
        '<article class="guide">\n<carousel class="deck container-fluid">\n'
        + "\n".join(sections)
        + "\n</carousel>\n</article>\n"
    )


def _slide(slide: Slide, blocks: list[str]) -> str:
    pres = "".join(f'<pre class="runnable" mode="cypher">{html.escape(b)}</pre>\n' for b in blocks)
    source = f"<p><small>cypher/{slide.query}.cypher</small></p>\n" if slide.query else ""
    return (
        f'<slide class="row-fluid">\n<div class="col-sm-12">\n<h3>{slide.title}</h3>\n'
        f"<p>{slide.text}</p>\n{pres}{source}</div>\n</slide>"
    )
