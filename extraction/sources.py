"""Files as text, as `donto memorize FILE` keeps them: read by their content, never by their name.

Images (PNG, JPEG, WebP, GIF, BMP: their text read by the offline OCR of extraction/ocr.py, when
the caller gives one), PDF (pypdf: pure Python, each page's text), HTML (its main text, without the page's navigation,
header and footer: trafilatura, the maintained boilerplate remover that web corpora are built
with; a hand-written tag stripper kept menus and cookie notices), Markdown and plain text (UTF-8,
kept as written). Anything else is refused, saying what it looks like. The text returned is the
text donto keeps: every offset (passages, evidence spans) refers to it."""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass
from typing import Literal

from donto.extraction.ocr import Ocr, UnreadableImage, image_format

SourceKind = Literal["pdf", "html", "markdown", "text", "image"]
READS = "donto reads PDF, HTML, Markdown, plain text (UTF-8) and images (PNG, JPEG, WebP, GIF, BMP)"
# What a file that is none of those most likely is, by its first bytes.
SIGNATURES = (
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"PK\x03\x04", "a ZIP archive (a .docx, .xlsx or .odt is one)"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"\xd0\xcf\x11\xe0", "an old Microsoft Office file"),
    (b"{\\rtf", "an RTF document"),
)
HEADING = re.compile(r"^#{1,6}[ \t]+(\S.*?)[ \t#]*$", re.MULTILINE)
HTML_START = re.compile(r"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body)\b", re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class SourceText:
    text: str
    title: str
    kind: SourceKind


class UnreadableSource(ValueError):
    """A file donto does not read, or cannot get text out of; the message names it."""


def read_source(data: bytes, name: str, ocr: Ocr | None = None) -> SourceText:
    """The text of a file named `name` (used in messages and as the title when it has none); an
    image's is read with `ocr` (without one, an image is refused)."""
    if data.startswith(b"%PDF-"):
        return _pdf(data, name)
    what = image_format(data)
    if what is not None:
        return _image(data, name, what, ocr)
    for signature, what in SIGNATURES:
        if data.startswith(signature):
            raise UnreadableSource(f"{name}: {what}; {READS}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UnreadableSource(f"{name}: neither PDF nor UTF-8 text; {READS}") from None
    if "\x00" in text:
        raise UnreadableSource(f"{name}: binary data; {READS}")
    if HTML_START.match(text[:4096]):
        return _html(text, name)
    heading = HEADING.search(text[:4096])
    if heading is not None or name.lower().endswith((".md", ".markdown")):
        return SourceText(text, heading.group(1) if heading else name, "markdown")
    return SourceText(text, name, "text")


def _pdf(data: bytes, name: str) -> SourceText:
    from pypdf import PdfReader

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # what it could not read is said once, below
    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [(page.extract_text() or "").strip() for page in reader.pages]
        title = reader.metadata.title if reader.metadata is not None else None
    except Exception as exc:  # noqa: BLE001 - a file from anywhere: encrypted, malformed, a parser's edge case
        raise UnreadableSource(f"{name}: a PDF that could not be read ({type(exc).__name__}: {exc})") from None
    text = "\n\n".join(p for p in pages if p)
    if not text.strip():
        raise UnreadableSource(
            f"{name}: a PDF with no text in it (scanned pages are not read: give donto each page as an image)"
        )
    return SourceText(text, (title or "").strip() or name, "pdf")


def _image(data: bytes, name: str, what: str, ocr: Ocr | None) -> SourceText:
    if ocr is None:
        raise UnreadableSource(f"{name}: a {what.upper()} image, and no OCR was given to read it")
    try:
        text = ocr.read(data).strip()
    except UnreadableImage as exc:
        raise UnreadableSource(f"{name}: {exc}") from None
    if not text:
        raise UnreadableSource(f"{name}: a {what.upper()} image with no text that OCR could read")
    return SourceText(text, name, "image")


def _html(html: str, name: str) -> SourceText:
    import trafilatura

    try:
        found = trafilatura.bare_extraction(html, with_metadata=True, include_comments=False, include_tables=True)
    except Exception as exc:  # noqa: BLE001 - a page from anywhere
        raise UnreadableSource(f"{name}: an HTML page that could not be read ({type(exc).__name__}: {exc})") from None

    def field(key: str) -> str:  # a Document (trafilatura 2), or a dict with as_dict
        value = found.get(key) if isinstance(found, dict) else getattr(found, key, None)
        return (value or "").strip()

    text = field("text")
    if not text:
        raise UnreadableSource(f"{name}: an HTML page with no main text in it")
    return SourceText(text, field("title") or name, "html")
