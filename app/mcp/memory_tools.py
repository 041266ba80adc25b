"""The agent's curated memory as MCP tools (seed 002): subjects, observations, understandings, and
the attention verbs over them, each mapped to the service calls its REST route makes
(app/api/routers/subjects.py, understandings.py, memory.py), validated through the same request
models and answered with the same response models.

A conversation is the memory's session (what it has been shown, its heartbeat token, what it may
delete), and the model never passes one: see `conversations`."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Literal
from uuid import uuid4

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult
from pydantic import Field, StringConstraints

from donto.api.schemas.common import Id, Instant, Key
from donto.api.schemas.subjects import (
    MAX_BATCH,
    MAX_SUBJECTS,
    AppendedListOut,
    AppendedOut,
    AroundIn,
    AroundOut,
    BringIn,
    BringOut,
    DeletedOut,
    DeleteObservationsIn,
    GenerationOut,
    HistoryOut,
    IntersectionIn,
    IntersectionOut,
    ItemOut,
    MemoryRecallIn,
    MemoryRecallOut,
    MergeIn,
    MergeOut,
    ObservationIn,
    ObservationKind,
    ObservationsIn,
    OrientOut,
    Reason,
    RejectedOut,
    RememberIn,
    ReportOut,
    ResetOut,
    SearchIn,
    SearchOut,
    SignalIn,
    SignalOut,
    SimilarIn,
    SimilarOut,
    SimilarPairOut,
    StatsOut,
    StructureIn,
    SubjectDetailOut,
    SubjectIn,
    SubjectListOut,
    SubjectOut,
    SubjectPatchIn,
    SubjectRef,
    SubjectsGetIn,
    SubjectsGetOut,
    Summary,
    Text,
    UnderstandingIn,
    UnderstandingKind,
    UnderstandingListOut,
    UnderstandingOut,
    UnderstandingsAboutIn,
    UnderstandingUpdatedOut,
    UnderstandingUpdateIn,
    UnmergeIn,
)
from donto.errors import InvalidInput
from donto.mcp.common import DELETES, READS, WRITES, WorkspaceOf, result
from donto.memory import Memory
from donto.subjects.attention import DISPOSABLE_NOTE, PROTOCOL_NOTE, SOUL_NOTE
from donto.temporal.instants import iso

SESSION_ID = re.compile(r"\S{1,128}")  # as the REST API's X-Donto-Session
SESSION_HEADERS = ("x-donto-session", "mcp-session-id")  # an explicit conversation id first

Subjects = Annotated[
    list[SubjectRef], Field(min_length=1, max_length=MAX_SUBJECTS, description="names, aliases or ids of subjects")
]
UnderstandingId = Annotated[Id, Field(description="an understanding's id")]
Tags = Annotated[list[Key] | None, Field(max_length=50, description="labels to filter and navigate by")]
Aliases = Annotated[list[Key] | None, Field(max_length=50, description="other names it answers to")]
ModelTier = Annotated[
    Annotated[str, StringConstraints(max_length=64)] | None,
    Field(description="which model wrote it, e.g. 'opus' (provenance: stronger tiers rank higher)"),
]
Why = Annotated[Reason | None, Field(description="why, in a line")]
RELATED_TO = (
    "understanding ids this observation is DIRECT evidence for: it updates, confirms, contradicts or adds "
    "important nuance to them, and would be the first thing to read before revising them. Not for topical "
    "proximity (subjects already say what it is about). When in doubt, leave it empty: unlinked observations "
    "surface as pending consolidation, which is the right signal"
)


def conversations() -> Callable[[Context], str | None]:
    """The conversation (memory session) a call belongs to, so that a model never passes one. Over
    HTTP: the X-Donto-Session header, as for REST, else Mcp-Session-Id when the client sends one
    (the API serves MCP stateless, and the 2026 protocol has no sessions, so it mints none);
    without either, the workspace's default session. Over stdio: the process, which serves one
    client for its life (the SDK makes a ServerSession per request, so that is no identity)."""
    own = f"mcp-{uuid4().hex}"

    def session_of(ctx: Context) -> str | None:
        headers = ctx.headers
        if headers is None:
            return own
        for name in SESSION_HEADERS:
            value = headers.get(name)
            if value is not None:
                if not SESSION_ID.fullmatch(value):
                    raise InvalidInput("a session id is 1 to 128 characters, none of them a space", field=name)
                return value
        return None

    return session_of


def register(server: MCPServer, memory: Memory, workspace_of: WorkspaceOf) -> None:
    session_of = conversations()

    # -- attention: orient, bring_to_mind, recall, search ---------------------------------------
    # orient, bring_to_mind and recall_memory change what this conversation was shown, never memory: READS.

    @server.tool(annotations=READS)
    def orient(ctx: Context) -> Annotated[CallToolResult, OrientOut]:
        """Call this first in every conversation, and again after your context was compacted.

        Returns soul (who you are), protocol (how to use this memory) and orientation (where things
        stand), in that order: read them in order. Keep soul and protocol through compaction (their
        compaction_note says so). Also: the current generation, how many observations await
        consolidation, which subjects changed since the last consolidation, and whether this
        conversation is new. Resets what this conversation has been shown, so bring_to_mind starts
        afresh."""
        return result(
            OrientOut.of(memory.attention.orient(workspace_of(ctx), session_of(ctx)), SOUL_NOTE, PROTOCOL_NOTE)
        )

    @server.tool(annotations=READS)
    def bring_to_mind(
        topic_or_context: Annotated[Text, Field(description="a sketch of what the conversation is about now")],
        ctx: Context,
        last_token: Annotated[
            int | None,
            Field(
                ge=0,
                le=2**31,
                description="heartbeat_token of your previous bring_to_mind; leave out only on the first",
            ),
        ] = None,
        include_seen: Annotated[bool, Field(description="also what this conversation was shown already")] = False,
        limit: Annotated[int, Field(ge=1, le=50, description="items at most")] = 8,
    ) -> Annotated[CallToolResult, BringOut]:
        """Associative recall: what memory holds on the current topic that this conversation was not shown yet.

        Call it regularly as the conversation moves, not only when you know you need something: it surfaces
        understandings and recent observations. Pass the heartbeat_token of the previous answer as
        last_token: if it is missing or wrong, your context was compacted, so the answer says
        compaction_detected and surfaces everything afresh (a long silence does the same). The token is the
        only thing worth keeping from the answer; the rest is a hint to act on now, and disposable."""
        body = BringIn(topic_or_context=topic_or_context, last_token=last_token, include_seen=include_seen, limit=limit)
        brought = memory.attention.bring_to_mind(
            workspace_of(ctx), session_of(ctx), body.topic_or_context, body.last_token, body.include_seen, body.limit
        )
        return result(BringOut.of(brought, DISPOSABLE_NOTE))

    @server.tool(annotations=READS)
    def recall_memory(
        ctx: Context,
        question: Annotated[
            Text | None, Field(description="a question in words: the best answer, then support")
        ] = None,
        subject: Annotated[
            SubjectRef | None, Field(description="a subject's name, alias or id: everything held about it")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="items or observations at most")] = 10,
    ) -> Annotated[CallToolResult, MemoryRecallOut]:
        """Directed recall over the memory you curate: give exactly one of question and subject.

        A question: the best-ranked understanding or observation, then what supports it. A subject: its
        single-subject, structural and relationship understandings, its newest observations, and the
        claims beneath it. Unlike bring_to_mind it shows what was seen already. Not the `recall` tool,
        which searches kept conversations and claims."""
        body = MemoryRecallIn(question=question, subject=subject, limit=limit)
        if (body.question is None) == (body.subject is None):
            raise InvalidInput("send exactly one of question and subject", field="question")
        workspace, session = workspace_of(ctx), session_of(ctx)
        if body.question is not None:
            return result(
                MemoryRecallOut.of_question(
                    memory.attention.recall_question(workspace, session, body.question, body.limit)
                )
            )
        assert body.subject is not None
        return result(
            MemoryRecallOut.of_subject(memory.attention.recall_subject(workspace, session, body.subject, body.limit))
        )

    @server.tool(annotations=WRITES)
    def reset_seen(ctx: Context) -> Annotated[CallToolResult, ResetOut]:
        """Forget what this conversation has been shown, so bring_to_mind surfaces it again.

        Rarely needed: orient, and a missing or wrong last_token, do it already. Answers how many were cleared."""
        return result(ResetOut(cleared=memory.attention.reset_seen(workspace_of(ctx), session_of(ctx))))

    @server.tool(annotations=READS)
    def search_memory(
        query: Annotated[Text, Field(description="words or a description of what to find")],
        ctx: Context,
        subject_names: Annotated[
            list[SubjectRef] | None,
            Field(max_length=MAX_SUBJECTS, description="only what is about ALL of these subjects"),
        ] = None,
        mode: Annotated[
            Literal["embedding", "text"], Field(description="embedding: by meaning; text: by the words themselves")
        ] = "embedding",
        limit: Annotated[int, Field(ge=1, le=100, description="results at most")] = 10,
    ) -> Annotated[CallToolResult, SearchOut]:
        """Search observations and understandings by meaning or by words, optionally only within given subjects.

        Ranked with understandings first. A plain search: unlike bring_to_mind and recall_memory, it neither
        skips nor marks what this conversation was shown."""
        body = SearchIn(query=query, subject_names=subject_names or [], mode=mode, limit=limit)
        items = memory.attention.search(workspace_of(ctx), body.query, list(body.subject_names), body.mode, body.limit)
        return result(SearchOut(results=[ItemOut.of(i) for i in items]))

    # -- subjects -------------------------------------------------------------------------------

    @server.tool(annotations=WRITES)
    def create_subject(
        name: Annotated[Key, Field(description="the subject's name, unique in the workspace, e.g. 'James'")],
        ctx: Context,
        summary: Annotated[
            Annotated[str, StringConstraints(max_length=4000)] | None, Field(description="a line to navigate by")
        ] = None,
        tags: Tags = None,
        aliases: Aliases = None,
    ) -> Annotated[CallToolResult, SubjectOut]:
        """Name a subject (a person, a project, an idea) on purpose, with a summary, before observations pile up.

        remember names new subjects too; create one here to give it a summary, tags or aliases. Check
        list_subjects first: one subject per thing, consistently named. A name or alias already taken
        (case aside) is a conflict."""
        body = SubjectIn(name=name, summary=summary, tags=tags or [], aliases=aliases or [])
        created = memory.subjects.create(
            workspace_of(ctx), body.name, body.summary, list(body.tags), list(body.aliases), session_of(ctx)
        )
        return result(SubjectOut.of(created))

    @server.tool(annotations=READS)
    def get_subjects(
        names: Annotated[
            list[SubjectRef], Field(min_length=1, max_length=MAX_SUBJECTS, description="names, aliases or ids")
        ],
        ctx: Context,
    ) -> Annotated[CallToolResult, SubjectsGetOut]:
        """Subjects in full, by name, alias or id: everything about each but its observations.

        Summary, tags, aliases, version (for update_subject), observation count, when last observed, and the
        brief of its single-subject and structural understandings."""
        workspace = workspace_of(ctx)
        body = SubjectsGetIn(names=names)
        return result(
            SubjectsGetOut(
                subjects=[
                    SubjectDetailOut.of_detail(memory.subjects.detail(workspace, s.id))
                    for s in memory.subjects.get_many(workspace, list(body.names))
                ]
            )
        )

    @server.tool(annotations=WRITES)
    def update_subject(
        ref: Annotated[SubjectRef, Field(description="the subject's name, alias or id")],
        version: Annotated[int, Field(ge=1, description="the version you read (get_subjects)")],
        ctx: Context,
        summary: Annotated[
            Annotated[str, StringConstraints(max_length=4000)] | None, Field(description="the new summary")
        ] = None,
        tags: Annotated[list[Key] | None, Field(max_length=50, description="the new tags (all of them)")] = None,
        aliases: Annotated[list[Key] | None, Field(max_length=50, description="the new aliases (all of them)")] = None,
    ) -> Annotated[CallToolResult, SubjectOut]:
        """Change a subject's summary, tags or aliases; what is left out stays.

        A version other than the subject's current one is a conflict and nothing is written: read it
        again and decide anew."""
        body = SubjectPatchIn(version=version, summary=summary, tags=tags, aliases=aliases)
        updated = memory.subjects.update(
            workspace_of(ctx),
            ref,
            body.version,
            body.summary,
            list(body.tags) if body.tags is not None else None,
            list(body.aliases) if body.aliases is not None else None,
            session_of(ctx),
        )
        return result(SubjectOut.of(updated))

    @server.tool(annotations=WRITES)
    def set_structure(
        subject_name: Annotated[SubjectRef, Field(description="the subject's name, alias or id")],
        text: Annotated[Text, Field(description="freeform: aliases, containment, merge history, overlap notes")],
        ctx: Context,
        summary: Annotated[Summary | None, Field(description="a line; default 'structure of <subject>'")] = None,
    ) -> Annotated[CallToolResult, UnderstandingOut]:
        """Write (or replace) a subject's structural note: what needs saying about it as a thing in memory.

        Aliases, what it contains or is part of, merge history, why it is kept apart from a close subject.
        Rarely needed: what is known ABOUT the subject belongs in observations and understandings. A new
        note supersedes the old one."""
        body = StructureIn(subject_name=subject_name, text=text, summary=summary)
        written = memory.subjects.create_understanding(
            workspace_of(ctx),
            [body.subject_name],
            body.text,
            body.summary or f"structure of {body.subject_name}",
            kind="structural",
            session=session_of(ctx),
            subjects_field="subject_name",
        )
        return result(UnderstandingOut.of(written))

    @server.tool(annotations=READS)
    def list_subjects(
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=1000, description="subjects at most")] = 1000,
        cursor: Annotated[
            str | None, Field(min_length=1, max_length=4096, description="next_cursor of the page before")
        ] = None,
    ) -> Annotated[CallToolResult, SubjectListOut]:
        """The workspace's subjects by name, each with its observation count: check before naming one."""
        page = memory.subjects.page(workspace_of(ctx), limit, cursor)
        return result(SubjectListOut(subjects=[SubjectOut.of(s) for s in page.subjects], next_cursor=page.next_cursor))

    # -- observations ---------------------------------------------------------------------------

    @server.tool(annotations=WRITES)
    def remember(
        text: Annotated[Text, Field(description="what was heard, read or observed, as it was")],
        subjects: Annotated[
            list[SubjectRef],
            Field(
                min_length=1,
                max_length=MAX_SUBJECTS,
                description="the subjects it is genuinely ABOUT (not merely related to); "
                "a name no subject answers to creates that subject",
            ),
        ],
        ctx: Context,
        kind: Annotated[ObservationKind | None, Field(description="what sort of observation it is")] = None,
        confidence: Annotated[float | None, Field(ge=0, le=1, description="how sure, 0 to 1")] = None,
        observed_at: Annotated[Instant | None, Field(description="when it was observed; default now")] = None,
        related_to: Annotated[list[Id] | None, Field(max_length=20, description=RELATED_TO)] = None,
        cites: Annotated[
            list[Id] | None, Field(max_length=50, description="ids of claims or documents it rests on")
        ] = None,
        model_tier: ModelTier = None,
    ) -> Annotated[CallToolResult, AppendedOut]:
        """Keep an observation: raw evidence, permanent, about the subjects named (new names create subjects).

        The subjects it created are listed in subjects_created: check that list. Tag a subject only if the
        observation is genuinely about it; when in doubt, don't. related_to is a claim of direct evidential
        dependence, not of relevance: leave it empty unless the observation directly updates, confirms,
        contradicts or nuances an existing understanding. The same text again returns the stored
        observation (created=false). Its id lets you delete_observations it within this conversation."""
        body = RememberIn(
            text=text,
            subjects=subjects,
            kind=kind,
            confidence=confidence,
            observed_at=observed_at,
            related_to=related_to or [],
            cites=cites or [],
            model_tier=model_tier,
        )
        [appended] = memory.subjects.append(
            workspace_of(ctx), [body.to_draft()], session_of(ctx), create_subjects=True, field=None
        )
        return result(AppendedOut.of(appended))

    @server.tool(annotations=WRITES)
    def append_observations(
        observations: Annotated[
            list[ObservationIn],
            Field(min_length=1, max_length=MAX_BATCH, description="the observations, written all or none"),
        ],
        ctx: Context,
    ) -> Annotated[CallToolResult, AppendedListOut]:
        """Lower-level remember: several observations at once, all or none, about subjects that already exist.

        With full provenance. Each: {"text", "subjects": [...], "kind"?, "confidence"?, "observed_at"?,
        "related_to"?, "cites"?, "model_tier"?}, under remember's rules for subjects and related_to. A
        subject that does not exist is an error naming it (remember creates subjects)."""
        body = ObservationsIn(observations=observations)
        appended = memory.subjects.append(workspace_of(ctx), [o.to_draft() for o in body.observations], session_of(ctx))
        return result(AppendedListOut(observations=[AppendedOut.of(a) for a in appended]))

    @server.tool(annotations=DELETES)
    def delete_observations(
        ids: Annotated[list[Id], Field(min_length=1, max_length=MAX_BATCH, description="observation ids")],
        ctx: Context,
    ) -> Annotated[CallToolResult, DeletedOut]:
        """Delete observations written by mistake in THIS conversation; any other is rejected with its reason.

        Observations are otherwise the permanent record: for one that may be wrong, mark_questionable."""
        body = DeleteObservationsIn(ids=ids)
        deleted, rejected = memory.subjects.delete_observations(workspace_of(ctx), list(body.ids), session_of(ctx))
        return result(DeletedOut(deleted=deleted, rejected=[RejectedOut(id=i, reason=r) for i, r in rejected]))

    # -- understandings -------------------------------------------------------------------------

    @server.tool(annotations=WRITES)
    def create_understanding(
        subject_names: Annotated[
            list[SubjectRef],
            Field(
                max_length=MAX_SUBJECTS,
                description="the subjects it is about: one, or two or more; a soul, protocol or orientation may "
                "have none",
            ),
        ],
        text: Annotated[Text, Field(description="the synthesis, in prose")],
        summary: Annotated[Summary, Field(description="required, one line: donto writes no summaries")],
        ctx: Context,
        kind: Annotated[
            UnderstandingKind | None,
            Field(description="default: single_subject for one subject, relationship for two or more"),
        ] = None,
        source_observation_ids: Annotated[
            list[Id] | None, Field(max_length=500, description="the observations it synthesizes")
        ] = None,
        supersedes: Annotated[
            list[Id] | None, Field(max_length=20, description="active understandings this one consolidates")
        ] = None,
        reason: Why = None,
        model_tier: ModelTier = None,
    ) -> Annotated[CallToolResult, UnderstandingOut]:
        """Write a consolidated understanding about subjects: your current best view, derived from observations.

        One subject: what is known about it in isolation (single_subject). Two or more: what they mean in
        relation to each other, the synthesis of their intersection (relationship), not a summary of
        either. soul, protocol and orientation are the workspace's own (no subjects needed), read by
        orient. A new single-subject, structural, soul, protocol or orientation understanding replaces
        the active one (superseding it). To revise any other, use update_understanding."""
        body = UnderstandingIn(
            subject_names=subject_names,
            text=text,
            summary=summary,
            kind=kind,
            source_observation_ids=source_observation_ids or [],
            supersedes=supersedes or [],
            reason=reason,
            model_tier=model_tier,
        )
        written = memory.subjects.create_understanding(
            workspace_of(ctx),
            list(body.subject_names),
            body.text,
            body.summary,
            kind=body.kind,
            sources=list(body.source_observation_ids),
            supersedes=list(body.supersedes),
            reason=body.reason,
            model_tier=body.model_tier,
            session=session_of(ctx),
        )
        return result(UnderstandingOut.of(written))

    @server.tool(annotations=WRITES)
    def update_understanding(
        understanding_id: UnderstandingId,
        new_text: Annotated[Text, Field(description="the revised synthesis")],
        new_summary: Annotated[Summary, Field(description="required, one line: donto writes no summaries")],
        ctx: Context,
        subject_names: Annotated[
            list[SubjectRef] | None,
            Field(min_length=1, max_length=MAX_SUBJECTS, description="default: the old one's subjects"),
        ] = None,
        reason: Why = None,
        model_tier: ModelTier = None,
    ) -> Annotated[CallToolResult, UnderstandingUpdatedOut]:
        """Revise an understanding: a new version (same kind) supersedes it, and the history keeps both.

        A conflict means it was revised already: read understanding_history and revise the newest."""
        body = UnderstandingUpdateIn(
            understanding_id=understanding_id,
            new_text=new_text,
            new_summary=new_summary,
            subject_names=subject_names,
            reason=reason,
            model_tier=model_tier,
        )
        old, new = memory.subjects.update_understanding(
            workspace_of(ctx),
            body.understanding_id,
            body.new_text,
            body.new_summary,
            list(body.subject_names) if body.subject_names is not None else None,
            body.reason,
            body.model_tier,
            session_of(ctx),
        )
        return result(
            UnderstandingUpdatedOut(
                old_understanding_id=old.id,
                new_understanding_id=new.id,
                subject_names=new.subjects,
                understanding=UnderstandingOut.of(new),
            )
        )

    @server.tool(annotations=READS)
    def get_understandings(
        subject_names: Subjects,
        ctx: Context,
        kinds: Annotated[
            list[UnderstandingKind] | None, Field(max_length=6, description="only these kinds; default all")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=500, description="understandings at most")] = 50,
    ) -> Annotated[CallToolResult, UnderstandingListOut]:
        """The active understandings about ALL the given subjects, newest first, in full."""
        body = UnderstandingsAboutIn(subject_names=subject_names, kinds=kinds or [], limit=limit)
        found = memory.subjects.understandings_about(
            workspace_of(ctx), list(body.subject_names), list(body.kinds), body.limit
        )
        return result(UnderstandingListOut(understandings=[UnderstandingOut.of(u) for u in found]))

    @server.tool(annotations=READS)
    def understanding_history(understanding_id: UnderstandingId, ctx: Context) -> Annotated[CallToolResult, HistoryOut]:
        """Every version of an understanding, from any one of them: oldest first, with each revision's reason."""
        return result(HistoryOut.of(memory.subjects.history(workspace_of(ctx), understanding_id)))

    # -- intersections, neighbourhoods, similar subjects, merges ----------------------------------

    @server.tool(annotations=READS)
    def open_around(
        subject: Annotated[SubjectRef, Field(description="the subject's name, alias or id")],
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=500, description="neighbours at most")] = 25,
    ) -> Annotated[CallToolResult, AroundOut]:
        """A subject's neighbourhood: the subjects it shares anything with, largest intersection first.

        Each with how close in meaning the two are and their relationship understanding. A large
        intersection is a documented relationship; high similarity with a small one, a relationship worth
        developing. Then open_intersection reads one."""
        body = AroundIn(subject=subject, limit=limit)
        return result(AroundOut.of(memory.subjects.around(workspace_of(ctx), body.subject, body.limit)))

    @server.tool(annotations=READS)
    def open_intersection(
        subjects: Subjects,
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=1000, description="observations at most")] = 50,
    ) -> Annotated[CallToolResult, IntersectionOut]:
        """What the given subjects share, in full: the understandings and observations about ALL of them.

        The relationship understanding, other understandings about all of them, and the observations about
        all of them, newest first, with the count. For two or more subjects, also each one's observations
        in all and alone (about none of the others). One subject: everything about it."""
        body = IntersectionIn(subjects=subjects, limit=limit)
        return result(
            IntersectionOut.of(memory.subjects.intersection(workspace_of(ctx), list(body.subjects), body.limit))
        )

    @server.tool(annotations=READS)
    def find_similar_subjects(
        ctx: Context,
        subject: Annotated[
            SubjectRef | None, Field(description="pairs with this subject; default pairs among all")
        ] = None,
        min_similarity: Annotated[float, Field(ge=0, le=1, description="how close in meaning, 0 to 1")] = 0.6,
        max_shared: Annotated[int, Field(ge=0, le=1_000_000, description="at most this many shared observations")] = 1,
        limit: Annotated[int, Field(ge=1, le=200, description="pairs at most")] = 20,
    ) -> Annotated[CallToolResult, SimilarOut]:
        """Subject pairs close in meaning that share few observations: candidates to merge or to cross-tag.

        The same thing named twice: merge_subjects. Two things that belong together: remember what they
        share with both as subjects."""
        body = SimilarIn(subject=subject, min_similarity=min_similarity, max_shared=max_shared, limit=limit)
        pairs = memory.subjects.similar(
            workspace_of(ctx), body.subject, body.min_similarity, body.max_shared, body.limit
        )
        return result(SimilarOut(pairs=[SimilarPairOut.of(p) for p in pairs]))

    @server.tool(annotations=WRITES)
    def merge_subjects(
        primary: Annotated[SubjectRef, Field(description="the subject to keep")],
        duplicate: Annotated[SubjectRef, Field(description="the subject folded into it")],
        ctx: Context,
    ) -> Annotated[CallToolResult, MergeOut]:
        """Fold a duplicate subject into a primary; reversible with unmerge_subjects.

        Everything about the duplicate becomes about the primary, which answers to the duplicate's names too."""
        body = MergeIn(primary=primary, duplicate=duplicate)
        return result(
            MergeOut.of(memory.subjects.merge(workspace_of(ctx), body.primary, body.duplicate, session_of(ctx)))
        )

    @server.tool(annotations=WRITES)
    def unmerge_subjects(
        merge: Annotated[Key, Field(description="the merge_id merge_subjects returned, or the merged subject's name")],
        ctx: Context,
    ) -> Annotated[CallToolResult, MergeOut]:
        """Undo a merge: the duplicate is a subject of its own again, with what was about it.

        A conflict if its name was taken since."""
        body = UnmergeIn(merge=merge)
        return result(MergeOut.of(memory.subjects.unmerge(workspace_of(ctx), body.merge, session_of(ctx))))

    # -- signals and consolidation --------------------------------------------------------------

    @server.tool(annotations=WRITES)
    def mark_useful(
        id: Annotated[Id, Field(description="an observation's or understanding's id")],
        ctx: Context,
        reason: Why = None,
    ) -> Annotated[CallToolResult, SignalOut]:
        """Signal that an observation or understanding paid rent (it helped): it ranks higher from now on."""
        body = SignalIn(id=id, reason=reason)
        return result(
            SignalOut.of(memory.attention.signal(workspace_of(ctx), session_of(ctx), body.id, "useful", body.reason))
        )

    @server.tool(annotations=WRITES)
    def mark_questionable(
        id: Annotated[Id, Field(description="an observation's or understanding's id")],
        ctx: Context,
        reason: Why = None,
    ) -> Annotated[CallToolResult, SignalOut]:
        """Signal that an observation or understanding may be wrong, stale or unreliable: it ranks lower.

        It is listed in consolidation_report for the next pass."""
        body = SignalIn(id=id, reason=reason)
        signal = memory.attention.signal(workspace_of(ctx), session_of(ctx), body.id, "questionable", body.reason)
        return result(SignalOut.of(signal))

    @server.tool(annotations=READS)
    def consolidation_report(
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=500, description="items per list at most")] = 50,
        min_similarity: Annotated[
            float,
            Field(ge=-1, le=1, description="how close two subjects must be to count as densely related (1: the same)"),
        ] = 0.3,
        min_shared: Annotated[
            int, Field(ge=1, le=1_000_000, description="how many shared observations make an intersection dense")
        ] = 3,
    ) -> Annotated[CallToolResult, ReportOut]:
        """Start of a consolidation pass: what to work on, most valuable first.

        Subjects whose observations no understanding covers, stale understandings, intersections with new
        content to synthesize, close subjects sharing much that no relationship understanding covers yet,
        unlinked observations, and items marked questionable. Write the understandings, then
        close_consolidation."""
        return result(ReportOut.of(memory.attention.report(workspace_of(ctx), limit, min_similarity, min_shared)))

    @server.tool(annotations=WRITES)
    def close_consolidation(ctx: Context) -> Annotated[CallToolResult, GenerationOut]:
        """End a consolidation pass: what is written from now on belongs to the next generation.

        orient reports what changed since then."""
        previous, generation, at = memory.attention.advance_generation(workspace_of(ctx), session_of(ctx))
        return result(GenerationOut(previous_generation=previous, generation=generation, last_consolidated_at=iso(at)))

    @server.tool(annotations=READS)
    def memory_stats(ctx: Context) -> Annotated[CallToolResult, StatsOut]:
        """Both memories' size and state: counts, generation, perspectives, embedding coverage.

        sessions: conversations kept with add_turns. Then the curated memory: subjects (and merged ones),
        observations, understandings (and active ones), agent_sessions (conversations that used it),
        signals and events."""
        return result(StatsOut.of(memory.attention.stats(workspace_of(ctx))))
