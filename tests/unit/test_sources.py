"""Files become the text donto keeps by what they contain, never by their name: PDF, HTML (its main
text), Markdown, plain text and images (their text read by OCR); anything else is refused, saying
what it looks like."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from pypdf import PdfWriter

from donto.extraction.ocr import Ocr
from donto.extraction.sources import UnreadableSource, read_source
from support import PAGE, minimal_pdf, text_image


def test_a_pdf_is_read_page_text_with_its_own_title():
    pdf = minimal_pdf(["Minutes of the garden committee.", "Priya will order the compost bins."], "Garden minutes")
    source = read_source(pdf, "scan-0042.pdf")
    assert (source.kind, source.title) == ("pdf", "Garden minutes")
    assert source.text == "Minutes of the garden committee.\nPriya will order the compost bins."


def test_a_pdf_without_a_title_is_named_by_its_file_and_one_without_text_is_refused():
    assert read_source(minimal_pdf(["A line."]), "notes.pdf").title == "notes.pdf"
    with pytest.raises(UnreadableSource, match=r"empty\.pdf: a PDF with no text in it"):
        read_source(minimal_pdf([]), "empty.pdf")
    with pytest.raises(UnreadableSource, match=r"broken\.pdf: a PDF that could not be read"):
        read_source(b"%PDF-1.4\nnot really", "broken.pdf")
    locked = PdfWriter()
    locked.add_blank_page(100, 100)
    locked.encrypt("secret")
    data = io.BytesIO()
    locked.write(data)
    with pytest.raises(UnreadableSource, match=r"locked\.pdf: a PDF that could not be read \(FileNotDecryptedError"):
        read_source(data.getvalue(), "locked.pdf")


def test_an_html_page_gives_its_main_text_without_menus_and_footer():
    source = read_source(PAGE.encode(), "page.txt")  # by content: the name says text
    assert source.kind == "html" and source.title
    assert "Priya will order the compost bins" in source.text and "back office" in source.text
    assert "About us" not in source.text and "Cookie settings" not in source.text and "<p>" not in source.text


def test_markdown_keeps_its_text_as_written_and_its_first_heading_as_title():
    text = "Intro line.\n\n## Plans for May\n\nWe move to Porto."
    source = read_source(text.encode(), "plans.md")
    assert (source.kind, source.title, source.text) == ("markdown", "Plans for May", text)
    assert read_source(b"no heading here", "x.markdown").title == "x.markdown"


def test_plain_text_is_kept_as_written_a_bom_dropped():
    source = read_source("\ufeffAna leads the data team.\n".encode(), "note.txt")
    assert (source.kind, source.title, source.text) == ("text", "note.txt", "Ana leads the data team.\n")


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b"II*\x00\x08\x00", "a TIFF image"),
        (b"PK\x03\x04\x14\x00", "a ZIP archive"),
        (b"\xc3\x28 not utf-8", "neither PDF nor UTF-8 text"),
        (b"text\x00with a NUL", "binary data"),
    ],
)
def test_anything_else_is_refused_by_name_saying_what_it_looks_like(data, what):
    with pytest.raises(UnreadableSource) as refused:
        read_source(data, "whiteboard.bin")
    message = str(refused.value)
    assert message.startswith(f"whiteboard.bin: {what}") and "donto reads PDF, HTML, Markdown, plain text" in message


def test_an_image_is_read_by_its_content_with_the_ocr_given_and_refused_without_one():
    ocr = Ocr()
    shot = text_image(["Priya will order the compost bins."], "JPEG", quality=90)
    source = read_source(shot, "notes.txt", ocr)  # by content: the name says text
    assert (source.kind, source.title) == ("image", "notes.txt")
    assert source.text.replace(" ", "") == "Priyawillorderthecompostbins."
    with pytest.raises(UnreadableSource, match=r"^notes\.txt: a JPEG image, and no OCR was given to read it"):
        read_source(shot, "notes.txt")
    blank = io.BytesIO()
    Image.new("RGB", (200, 80), "white").save(blank, "PNG")
    with pytest.raises(UnreadableSource, match=r"^blank\.png: a PNG image with no text that OCR could read"):
        read_source(blank.getvalue(), "blank.png", ocr)
    with pytest.raises(UnreadableSource, match=r"^torn\.png: a PNG that could not be decoded"):
        read_source(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "torn.png", ocr)
