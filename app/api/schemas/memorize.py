"""Memorize: text (or a stored document or session) in, an extraction job out."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from donto.api.schemas.common import Id, Instant, Strict
from donto.errors import InvalidInput
from donto.extraction.engine import MAX_PASSES, MODE_SYNONYMS, Mode, ModeName
from donto.extraction.ocr import IMAGE_FORMATS, MAX_IMAGE_BYTES, MAX_IMAGE_CHARS, MAX_IMAGES, MAX_IMAGES_BYTES
from donto.extraction.prompts import MAX_LENS_CHARS, MAX_LENSES

if TYPE_CHECKING:  # the domain types the converters take; the models alone stay light for donto.Client
    from donto.memorize.service import MemorizeOutcome, MemorizeRequest

MAX_BATCH_ITEMS = 100
Lens = Annotated[str, StringConstraints(min_length=1, max_length=MAX_LENS_CHARS)]
# A list of lenses, or "default": the prompts' default set (extraction/prompts.py, or a prompt file's).
Lenses = Annotated[list[Lens], Field(max_length=MAX_LENSES)] | Literal["default"]
Image = Annotated[str, StringConstraints(min_length=1, max_length=MAX_IMAGE_CHARS)]
IMAGES_DESCRIPTION = (
    f"images whose text is read (offline OCR) and kept: each a data URL (data:image/png;base64,...) or bare "
    f"base64 of a {IMAGE_FORMATS} (known by its bytes, not its declared type), at most {MAX_IMAGES} images, "
    f"{MAX_IMAGE_BYTES // 2**20} MiB each and {MAX_IMAGES_BYTES // 2**20} MiB in all (decoded). Each image's "
    "text goes before `text` under a line '[OCR text from image #N]' (or is the whole text when `text` is "
    "absent), so it is recalled and extracted from like any text, and offsets count it. Anything else is "
    "a 422 naming images[i]; an image that cannot be decoded or shows no text is reported in the answer's "
    "`images` and left out, and when that leaves nothing to keep the request is a 422 naming images"
)


class MemorizeIn(Strict):
    text: Annotated[str, StringConstraints(min_length=1, max_length=1_000_000, pattern=r"\S")] | None = None
    document_id: Id | None = Field(default=None, description="a registered document revision to read")
    session_id: Id | None = Field(default=None, description="an episode session (its id, as POST /v1/episodes gave)")
    title: Annotated[str, StringConstraints(max_length=1000)] | None = Field(
        default=None, description="the title of the document `text` is kept as"
    )
    occurred_at: Instant | None = Field(
        default=None,
        description="with `text`: when it was written or said. It dates the document's passages, and the "
        "model is told it, so that the facts it finds are dated against it; default: now",
    )
    mode: ModeName = Field(
        default="single",
        description="single: one pass; exhaustive: several angles (apertures); deep: passes until nothing new. "
        f"Seed 001's names are taken too ({', '.join(f'{k}: {v}' for k, v in MODE_SYNONYMS.items())}) and "
        "answered with the canonical one",
    )
    passes: int = Field(default=3, ge=1, le=MAX_PASSES, description="deep mode's most passes per chunk")
    lenses: Lenses = Field(
        default_factory=list,
        description="focused passes after the mode's own, each shown the facts found so far: a list of "
        "lenses ('kinship', 'health', ...), or \"default\" for the built-in set (people and roles, times "
        "and order, places, quantities, causes, who said what; a prompt file may name its own). The job's "
        "request records the lenses that ran",
    )
    run_async: bool = Field(default=True, alias="async", description="false: run now and answer with the result")
    images: list[Image] = Field(default_factory=list, max_length=MAX_IMAGES, description=IMAGES_DESCRIPTION)

    def to_request(self) -> MemorizeRequest:
        from donto.extraction.ocr import UnreadableImage, decode_image
        from donto.memorize.service import MemorizeRequest  # here, not at the top: only the server converts

        images = []
        for i, image in enumerate(self.images):
            try:
                images.append(decode_image(image))
            except UnreadableImage as exc:
                raise InvalidInput(str(exc), field=f"images[{i}]") from None

        return MemorizeRequest(
            text=self.text,
            document_id=self.document_id,
            session_id=self.session_id,
            title=self.title,
            occurred_at=self.occurred_at,
            mode=self.mode,
            passes=self.passes,
            lenses=self.lenses if isinstance(self.lenses, str) else tuple(self.lenses),
            run_async=self.run_async,
            images=tuple(images),
        )


class MemorizeBatchIn(Strict):
    items: list[MemorizeIn] = Field(
        min_length=1,
        max_length=MAX_BATCH_ITEMS,
        description="texts (or kept documents, sessions) to memorize, one job each; every item is checked "
        "before any is kept, so one bad item keeps nothing (422 naming items[i].field). Always queued. "
        "Images are not taken here (POST /v1/memorize, one request each)",
    )


class ImageReadOut(BaseModel):
    index: int = Field(description="the image's place in the request's images")
    format: Literal["png", "jpeg", "webp", "gif", "bmp"] = Field(description="as its bytes say")
    bytes: int
    chars: int = Field(description="characters of text read in it and kept (0: none)")
    error: str | None = Field(
        default=None, description="why nothing was read: it could not be decoded, or shows no text"
    )


class MemorizeOut(BaseModel):
    source_kind: Literal["document", "session"]
    mode: Mode = Field(description="the extraction mode, by its canonical name")
    source_id: str = Field(description="the document revision or session the text is kept as")
    extraction: Literal["queued", "running", "succeeded", "failed", "cancelled", "not_configured"]
    job_id: str | None = None
    queue_position: int | None = Field(default=None, description="1 = next")
    eta_s: float | None = Field(default=None, description="a guess from this workspace's recent jobs")
    summary: dict[str, int | float | bool | list[str]] | None = None
    images: list[ImageReadOut] | None = Field(default=None, description="with images: what was read in each, in order")

    @classmethod
    def of(cls, outcome: MemorizeOutcome) -> MemorizeOut:
        return cls(
            source_kind=outcome.source_kind,
            mode=outcome.mode,  # type: ignore[arg-type]  # canonical: MemorizeService.check made it so
            source_id=outcome.source_id,
            extraction=outcome.extraction,
            job_id=outcome.job_id,
            queue_position=outcome.queue_position,
            eta_s=outcome.eta_s,
            summary=outcome.summary,
            images=[ImageReadOut(**asdict(read)) for read in outcome.images] if outcome.images else None,
        )


class MemorizeBatchOut(BaseModel):
    results: list[MemorizeOut] = Field(description="one per item, in order")
