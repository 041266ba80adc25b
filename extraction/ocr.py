"""Text in images, read offline: screenshots, photos of pages, scans.

RapidOCR (rapidocr-onnxruntime): PaddleOCR's PP-OCRv4 detection and recognition models as ONNX
files inside the wheel, run on onnxruntime (which donto's encoder already uses); nothing is
downloaded at run time and no system program is needed. Chosen over Tesseract by `python -m bench
ocr` (docs/benchmarks.md): as good on a clean page (Tesseract keeps the spaces between words a little
better), and far better on a small-font settings screen (label beside value, where Tesseract read
the columns one after the other) and on a photo-like page (where Tesseract read nothing).

An image is known by its first bytes (PNG, JPEG, WebP, GIF, BMP), never by a name or a declared
type. The engine is heavy (three models, about 16 MB, ~0.5 s to load): one is loaded per process,
the first time it is needed, and reads one image at a time (`threads` cores each); reading an
image takes about a second or more on a small CPU, so callers run it off any event loop."""

from __future__ import annotations

import base64
import binascii
import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

IMAGE_FORMATS = "PNG, JPEG, WebP, GIF or BMP"
# What memorize takes in one request. Its body is at most DONTO_MAX_BODY_BYTES (8 MiB) and base64 is
# 4/3 of the bytes it carries, so 5 MiB of images (6.7 MiB as base64) leave room for the text.
MAX_IMAGES = 8
MAX_IMAGE_BYTES = 4 * 1024 * 1024  # one image, decoded
MAX_IMAGES_BYTES = 5 * 1024 * 1024  # all of a request's images, decoded
MAX_IMAGE_CHARS = MAX_IMAGE_BYTES * 4 // 3 + 4096  # one image as sent: base64, a data URL's header, line breaks
BMP_HEADERS = (12, 40, 52, 56, 64, 108, 124)
MAX_PIXELS = 40_000_000  # an image larger than this (a decompression bomb, or a poster) is refused unread
# The detector sees the image with its longer side at most this (PaddleOCR's own default is 960): a
# 1280x720 screenshot is read as it is, a 12-megapixel photo of a page at 2000x1500.
MAX_SIDE = 2000


class UnreadableImage(ValueError):
    """Not an image donto reads, or one whose text could not be read; the message says which."""


def image_format(data: bytes) -> str | None:
    """png, jpeg, webp, gif or bmp by the first bytes; None for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    # "BM", then a DIB header of a known size: a text beginning "BMW ..." is no bitmap
    if data.startswith(b"BM") and len(data) >= 26 and int.from_bytes(data[14:18], "little") in BMP_HEADERS:
        return "bmp"
    return None


def decode_image(value: str) -> bytes:
    """The bytes of an image given as a data URL (`data:image/png;base64,...`) or as bare base64."""
    payload = value.strip()
    if payload.startswith("data:"):
        header, comma, payload = payload.partition(",")
        if not comma or not header.lower().endswith(";base64"):
            raise UnreadableImage("a data URL is read as data:<type>;base64,<data>")
    try:
        return base64.b64decode("".join(payload.split()), validate=True)
    except (binascii.Error, ValueError):
        raise UnreadableImage("neither a data URL nor base64") from None


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    bottom: float
    text: str


def lines_of(boxes: Sequence[Box]) -> str:
    """Recognised boxes as lines in reading order: a box whose middle lies within a line's height
    joins that line (left to right, spaces between); lines top to bottom."""
    lines: list[list[Box]] = []
    for box in sorted(boxes, key=lambda b: (b.top + b.bottom) / 2):
        middle = (box.top + box.bottom) / 2
        if lines and lines[-1][0].top <= middle <= lines[-1][0].bottom:
            lines[-1].append(box)
        else:
            lines.append([box])
    return "\n".join(" ".join(b.text for b in sorted(line, key=lambda b: b.left)) for line in lines)


class Ocr:
    """One engine, loaded when first used; `read` is safe from any thread (one image at a time)."""

    def __init__(self, threads: int = 1, max_side: int = MAX_SIDE):
        self.threads = threads
        self.max_side = max_side
        self._engine: Any = None
        self._lock = threading.Lock()

    def _loaded(self) -> Any:
        if self._engine is None:
            try:
                from rapidocr_onnxruntime import RapidOCR
            except ImportError:
                raise UnreadableImage(
                    "no OCR is installed here (rapidocr-onnxruntime, in donto-memory[server] on Python 3.11-3.12)"
                ) from None

            self._engine = RapidOCR(
                intra_op_num_threads=self.threads,
                inter_op_num_threads=1,
                max_side_len=self.max_side,
                det_limit_type="max",  # the default ("min", 736) blew a 900x140 line up to 4730x736: 1.6 s, not 0.13
                det_limit_side_len=self.max_side,
            )
        return self._engine

    def read(self, data: bytes) -> str:
        """The image's text, lines in reading order ("" when none was found); UnreadableImage when
        the bytes are no image donto reads, cannot be decoded, or the engine fails on them."""
        what = image_format(data)
        if what is None:
            raise UnreadableImage(f"not an image donto reads ({IMAGE_FORMATS}, known by its first bytes)")
        from PIL import Image

        try:
            with Image.open(io.BytesIO(data)) as opened:
                if opened.width * opened.height > MAX_PIXELS:
                    raise UnreadableImage(
                        f"a {what.upper()} of {opened.width}x{opened.height} pixels; donto reads images of "
                        f"at most {MAX_PIXELS // 1_000_000} megapixels"
                    )
                opened.seek(0)  # an animated GIF or WebP: its first frame
                image = _on_white(opened)
        except UnreadableImage:
            raise
        except Exception as exc:  # noqa: BLE001 - an image from anywhere: Pillow's decoders raise many kinds
            detail = str(exc) or type(exc).__name__
            raise UnreadableImage(f"a {what.upper()} that could not be decoded ({detail})") from None
        with self._lock:
            engine = self._loaded()
            try:
                found, _ = engine(image)
            except Exception as exc:  # noqa: BLE001 - the engine on an image from anywhere
                raise UnreadableImage(f"the OCR failed on this {what.upper()} ({type(exc).__name__}: {exc})") from None
        boxes = []
        for points, text, _score in found or ():
            ys = [p[1] for p in points]
            if text.strip():
                boxes.append(Box(min(p[0] for p in points), min(ys), max(ys), text.strip()))
        return lines_of(boxes)


def _on_white(image: Any) -> Any:
    """RGB, transparent parts white (a screenshot's transparent background read as black hid its text)."""
    from PIL import Image

    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, rgba).convert("RGB")
    return image.convert("RGB")
