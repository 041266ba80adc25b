"""Recall: a question in, the memory bundle out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationInfo, field_validator

from donto.api.schemas.common import Key, ScopedIn

if TYPE_CHECKING:  # the domain types the converters take; the models alone stay light for donto.Client
    from donto.recall.render import RecallItem
    from donto.recall.service import RecallRequest, RecallResult


class RecallIn(ScopedIn):
    query: Annotated[str, StringConstraints(min_length=1, max_length=4000, pattern=r"\S")]
    k: int = Field(default=20, ge=1, le=200)
    # None: every arm; an empty list would find nothing, so it is refused rather than answered empty
    arms: list[Annotated[str, StringConstraints(max_length=64)]] | None = Field(
        default=None,
        min_length=1,
        max_length=16,  # every arm and step by name (15)
    )
    max_tokens: int | None = Field(default=None, ge=1, le=1_000_000)
    include_provenance: bool = False
    sessions: list[Key] | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="recall only within these sessions (their external ids): their turns and passages, and the "
        "claims a turn of theirs is evidence of; no documents. Default: all of memory",
    )
    documents: list[Key] | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="recall only within the registered documents whose external ids start with one of these "
        "prefixes (a whole external id is its own prefix): their current passages; no turns or claims. Not "
        "with `sessions`. Default: all of memory",
    )

    @field_validator("documents")
    @classmethod
    def _one_scope(cls, documents: list[str] | None, info: ValidationInfo) -> list[str] | None:
        if documents is not None and info.data.get("sessions") is not None:
            raise ValueError("give sessions or documents, not both")
        return documents

    def request(self) -> RecallRequest:
        """The recall this body asks for: one conversion for REST and MCP alike."""
        from donto.recall.service import RecallRequest  # here, not at the top: only the server converts

        return RecallRequest(
            query=self.query,
            scope=self.scope(),
            k=self.k,
            arms=tuple(self.arms) if self.arms is not None else None,
            max_tokens=self.max_tokens,
            include_provenance=self.include_provenance,
            sessions=tuple(self.sessions) if self.sessions is not None else None,
            documents=tuple(self.documents) if self.documents is not None else None,
        )


class ProvenanceOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    turn_ids: list[str] = Field(description="external ids of the turns behind the item")
    session_id: str | None = Field(description="external id of their session")
    claim_ids: list[str] = Field(description="claims whose hits brought the item")
    status: Literal["UNVERIFIED", "POTENTIALLY_STALE"] | None = Field(
        description="the premise walk over claim_ids at the request's scope; null without claims"
    )
    # A registered document's passage (absent for turns and claims): text[start:end] of that revision.
    document_id: str | None = Field(default=None, description="the document revision the passage is of")
    external_id: str | None = Field(default=None, description="that document's external id, if it has one")
    revision: int | None = None
    start: int | None = Field(default=None, description="the passage's offsets in the revision's text")
    end: int | None = None
    title: str | None = None

    DOCUMENT_FIELDS: ClassVar[frozenset[str]] = frozenset(
        {"document_id", "external_id", "revision", "start", "end", "title"}
    )


class RecallItemOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    subject: str = Field(description="the speaker of a turn, the subject of a claim")
    predicate: str = Field(description="'said' for a turn")
    object: str | None = Field(description="null for a turn")
    text: str = Field(description="what the agent reads, with its dates: '[8 May 2023] ...'")
    source: str = Field(description="the arm that contributed most")
    provenance: ProvenanceOut | None = Field(default=None, description="only with include_provenance")
    state: Literal["current", "superseded", "contested", "potentially_stale", "time_unknown"] | None = Field(
        default=None,
        description="a claim's, from the premise walk at the request's scope: superseded (a later value of a "
        "single-valued predicate, or its valid time is over), potentially_stale (a premise it rests on no longer "
        "holds), contested (a claim held in scope contradicts it), time_unknown (its time is words donto could not "
        "resolve: it may or may not hold now), current (what its statement says, a denial or a guess included, "
        "holds in scope); absent for turns and passages",
    )
    context: str | None = Field(
        default=None, description="a claim's modality (negated, possible, planned, reported, ...); absent: asserted"
    )
    hypothesis: bool | None = Field(default=None, description="a claim's: inferred or conceivable, not stated")
    standing: Literal["asserted", "corroborated", "hypothetical"] | None = Field(
        default=None,
        description="a claim's: hypothetical (a hypothesis), corroborated (two or more independent sources), asserted",
    )
    replaced_by: str | None = Field(
        default=None,
        description="on a question about the present, a turn or passage that later statements on the same matter "
        "replaced: the latest one's turn id (a passage's id); its text also quotes it; absent otherwise",
    )
    corrected_by: str | None = Field(
        default=None,
        description='a turn that a later turn of its session by the same speaker corrects ("sorry, it was July, '
        "not August\"), as known at known_at: the correcting turn's external id (as replaced_by and provenance's "
        "turn_ids name turns); its text also quotes the correction; absent otherwise",
    )

    relevance: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="how well the item answers the question, in [0, 1], comparable across questions and workspaces: "
        "its own cosine to the question and the share of the question's words it says (docs: recall, relevance); "
        "below 0.5 (the floor) an item is more likely about something else than an answer",
    )

    metadata: dict[str, Any] | None = Field(
        default=None, description="a turn's metadata, the JSON object posted with it; absent when it has none"
    )

    @classmethod
    def of(cls, item: RecallItem) -> RecallItemOut:
        """The item as the API hands it back: `provenance`, `state` and a claim's fields are left unset (so an answer
        made with exclude_unset leaves their keys out) where the item has none, and so are a
        provenance's document fields for a turn or a claim."""
        out = cls(
            subject=item.subject, predicate=item.predicate, object=item.object, text=item.text, source=item.source
        )
        if item.provenance is not None:
            fields = vars(item.provenance)  # flat: dataclasses.asdict deep-copies it, 0.3 ms a bundle of 20
            out.provenance = ProvenanceOut(
                **{k: v for k, v in fields.items() if v is not None or k not in ProvenanceOut.DOCUMENT_FIELDS}
            )
        if item.state is not None:
            out.state = item.state  # type: ignore[assignment]  # RecallItem.state is one of the five
        if item.context is not None:
            out.context = item.context
        if item.hypothesis is not None:
            out.hypothesis = item.hypothesis
        if item.standing is not None:
            out.standing = item.standing  # type: ignore[assignment]  # one of the three
        if item.replaced_by is not None:
            out.replaced_by = item.replaced_by
        if item.corrected_by is not None:
            out.corrected_by = item.corrected_by
        if item.relevance is not None:
            out.relevance = item.relevance
        if item.metadata is not None:
            out.metadata = item.metadata
        return out


class RecallOut(BaseModel):
    items: list[RecallItemOut]
    took_ms: float
    arms_unavailable: list[str] | None = Field(
        default=None,
        description="arms left out because their index is not online (Neo4j still building it after a schema "
        "upgrade, or `donto reembed` rebuilding it): the bundle is partial until then; absent when every arm ran",
    )
    names_read_as: dict[str, str] | None = Field(
        default=None,
        description='names in the question that the chat addresses a speaker by ("hey Kate!"), each with the label '
        'that speaker\'s turns carry (their `speaker`), by which recall read the question: {"kate": "Emi"}; '
        "absent when there are none",
    )

    nothing_relevant: bool = Field(
        default=False,
        description="true when no item reaches the relevance floor (0.5), an empty bundle included: memory most "
        "likely holds no answer to this question; an agent should say it does not know, or ask, rather than answer "
        "from these items",
    )

    workspace: str | None = Field(
        default=None,
        description="the workspace read (also the answer's X-Donto-Workspace header): an admin key without "
        "X-Donto-Workspace reads `default`, a workspace key its own",
    )
    workspace_empty: bool | None = Field(
        default=None,
        description="on an empty bundle: true when the workspace holds nothing recall reads (no turns, claims or "
        "documents: nothing written there yet, or another workspace was meant), false when it holds some and none "
        "answered; absent when items came back",
    )

    @classmethod
    def of(cls, result: RecallResult, workspace: str | None = None) -> RecallOut:
        out = cls(
            items=[RecallItemOut.of(i) for i in result.items],
            took_ms=round(result.took_ms, 2),
            nothing_relevant=result.nothing_relevant,
        )
        if workspace is not None:
            out.workspace = workspace
        if result.arms_unavailable:  # else left unset, so the answer leaves the key out
            out.arms_unavailable = list(result.arms_unavailable)
        if result.names_read_as:
            out.names_read_as = dict(result.names_read_as)
        return out
