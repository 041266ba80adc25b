"""The offline OCR (extraction/ocr.py): images known by their bytes, data URLs and base64 decoded,
and the words of an image drawn here with a real font read back, in reading order."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from donto.extraction.ocr import Box, Ocr, UnreadableImage, decode_image, image_format, lines_of
from support import text_image

pytestmark = pytest.mark.unit
LINES = ["Melanie moved to Lisbon in 2021.", "She restored 38 ship models."]


@pytest.fixture(scope="module")
def ocr() -> Ocr:
    return Ocr()


def test_the_words_of_a_drawn_image_are_read_back_line_by_line(ocr: Ocr):
    assert ocr.read(text_image(LINES)) == "\n".join(LINES)


@pytest.mark.parametrize(("fmt", "save"), [("JPEG", {"quality": 80}), ("WEBP", {}), ("GIF", {}), ("BMP", {})])
def test_every_format_donto_takes_is_read(ocr: Ocr, fmt, save):
    data = text_image(["Invoice 4471 paid"], fmt, **save)
    assert image_format(data) == fmt.lower()
    # The recogniser now and then leaves out a space between words (bench ocr: 0.985 of a page's characters)
    assert ocr.read(data).replace(" ", "") == "Invoice4471paid"


def test_a_transparent_screenshot_is_read_on_white_and_a_blank_one_reads_as_nothing(ocr: Ocr):
    drawn = Image.open(io.BytesIO(text_image(["Room B2 at 14:30"]))).convert("L")
    clear = Image.new("RGBA", drawn.size, (0, 0, 0, 0))
    clear.putalpha(drawn.point(lambda v: 255 - v))  # black text, everything else transparent
    out = io.BytesIO()
    clear.save(out, "PNG")
    assert ocr.read(out.getvalue()) == "Room B2 at 14:30"
    out = io.BytesIO()
    Image.new("RGB", (300, 100), "white").save(out, "PNG")
    assert ocr.read(out.getvalue()) == ""


def test_what_is_no_image_or_cannot_be_decoded_is_unreadable(ocr: Ocr):
    with pytest.raises(UnreadableImage, match="not an image donto reads"):
        ocr.read(b"II*\x00 a TIFF")
    with pytest.raises(UnreadableImage, match="a PNG that could not be decoded"):
        ocr.read(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")


def test_formats_are_known_by_their_first_bytes_only():
    assert image_format(b"\xff\xd8\xff\xe0") == "jpeg" and image_format(b"RIFF\x00\x00\x00\x00WEBPVP8 ") == "webp"
    assert image_format(b"BMW sold 2.5 million cars in 2023, up 6 percent.") is None  # text, not a bitmap
    assert image_format(b"%PDF-1.4") is None and image_format(b"") is None


def test_images_come_as_data_urls_or_bare_base64():
    data = text_image(["x"])
    encoded = base64.b64encode(data).decode()
    assert decode_image(f"data:image/png;base64,{encoded}") == data
    assert decode_image("\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76))) == data  # MIME lines
    with pytest.raises(UnreadableImage, match="data:<type>;base64"):
        decode_image("data:image/svg+xml,<svg/>")
    with pytest.raises(UnreadableImage, match="neither a data URL nor base64"):
        decode_image("not base64!")


def test_boxes_become_lines_top_to_bottom_each_left_to_right():
    boxes = [Box(300, 52, 80, "Lisbon"), Box(10, 10, 40, "Account"), Box(10, 50, 78, "City"), Box(200, 12, 38, "mel")]
    assert lines_of(boxes) == "Account mel\nCity Lisbon"


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "GIF", "BMP", "WEBP"])
def test_a_damaged_image_is_read_or_unreadable_never_an_error(ocr: Ocr, fmt):
    data = text_image(["Room B2"], fmt, size=16)
    for damaged in (data[: len(data) // 2], data[:40] + bytes(len(data) - 40), data[:12] + b"\xff" * 64):
        try:
            assert isinstance(ocr.read(damaged), str)
        except UnreadableImage as exc:
            assert str(exc).startswith((f"a {fmt} that could not be decoded", "not an image donto reads"))
