"""`python -m bench ocr`: the offline OCR (RapidOCR, extraction/ocr.py) beside Tesseract on images
whose text is known: pages rendered by Chromium (an article, a small-font settings screen), a page
drawn with Pillow, and that page made photo-like (rotated, blurred, noisy, dim, saved as a lossy
JPEG). Each is scored by character accuracy, 1 - edit distance / length of the known text (both
with runs of whitespace made one space), and timed (the median of --runs reads, the engine already
loaded). Tesseract is Debian's `tesseract` program, run as a process per image (`tesseract IMG
stdout`, and with `--psm 6`); it is measured only when installed, and is no dependency of donto. No Neo4j, no model."""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from donto.extraction.ocr import Ocr
from donto.settings import Settings

if TYPE_CHECKING:  # Pillow comes with the OCR (the server extra)
    from PIL import Image

FONTS = Path("/usr/share/fonts/truetype")
ARTICLE = (
    "Harbour museum reopens after two years",
    "Melanie Ortega moved to Lisbon in March 2021 to run the conservation workshop at the harbour museum.",
    "The museum closed in 2022 for repairs to its roof, and reopened on 14 May 2024 with a new gallery",
    "of ship models. Her team of six restored 38 of them, the oldest built in 1791 for a Dutch merchant.",
    "Tickets cost 12 euros; the museum is open from Tuesday to Sunday, 10:00 to 18:00.",
)
SETTINGS_UI = (
    ("Account", "melanie.ortega@example.org"),
    ("Plan", "Team (6 seats), renews 2025-03-01"),
    ("Two-factor authentication", "On, authenticator app"),
    ("Storage used", "41.7 GB of 100 GB"),
    ("Last sign-in", "12 Nov 2024 08:42 from Lisbon, Portugal"),
    ("API key", "dnt_live_7Q2x9KfA"),
    ("Webhook URL", "https://hooks.example.org/donto/ingest"),
    ("Retention", "Keep deleted items for 30 days"),
)
PAGE = (
    "Minutes of the board meeting, 3 October 2024",
    "Present: Ana Silva (chair), Tom Becker, Priya Nair and Jonas Weber.",
    "1. The budget for 2025 was approved at 2.4 million euros, 8 percent more than this year.",
    "2. Priya Nair will lead the move of the archive to the new building in Porto.",
    "3. Tom Becker reported that visitor numbers rose from 81,000 to 97,500.",
    "4. The next meeting is on 5 December at 14:30 in room B2.",
)


def run(settings: Settings, args: argparse.Namespace) -> int:
    images = _images()
    engines: dict[str, Callable[[bytes], str]] = {}
    for threads in sorted({1, args.threads}):
        ocr = Ocr(threads=threads)
        ocr.read(images[0][1])  # loaded and warm before anything is timed
        engines[f"rapidocr ({threads} thread{'s' if threads > 1 else ''})"] = ocr.read
    if shutil.which("tesseract"):
        engines["tesseract"] = _tesseract
        # Its default page layout analysis found no text in the photo; --psm 6 takes the image as one
        # block of text, which a photo of a page or a screen area mostly is.
        engines["tesseract --psm 6"] = lambda data: _tesseract(data, "--psm", "6")
        version = subprocess.run(["tesseract", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
        print(f"tesseract: {version}")
    else:
        print("tesseract: not installed (apt-get install tesseract-ocr), not measured")
    print(f"{'image':<22} {'engine':<22} {'accuracy':>8} {'median s':>9}  (load average {os.getloadavg()[0]:.1f})")
    totals: dict[str, list[float]] = {name: [] for name in engines}
    for label, data, truth in images:
        for name, read in engines.items():
            seconds, text = [], ""
            for _ in range(args.runs):
                started = time.perf_counter()
                text = read(data)
                seconds.append(time.perf_counter() - started)
            accuracy = char_accuracy(text, truth)
            totals[name].append(accuracy)
            print(f"{label:<22} {name:<22} {accuracy:>8.3f} {statistics.median(seconds):>9.2f}")
            if args.show:
                print(f"    {' '.join(text.split())[:300]!r}")
    for name, scores in totals.items():
        print(f"{'mean':<22} {name:<22} {statistics.mean(scores):>8.3f}")
    return 0


def char_accuracy(found: str, truth: str) -> float:
    """1 - Levenshtein distance / len(truth), whitespace runs made one space; 0 at worst."""
    a, b = " ".join(found.split()), " ".join(truth.split())
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return max(0.0, 1 - previous[-1] / max(len(b), 1))


def _tesseract(data: bytes, *options: str) -> str:
    with tempfile.NamedTemporaryFile(suffix=".img") as fh:
        fh.write(data)
        fh.flush()
        return subprocess.run(
            ["tesseract", fh.name, "stdout", *options], capture_output=True, text=True, check=True
        ).stdout


def _images() -> list[tuple[str, bytes, str]]:
    """(label, image bytes, the text in it)."""
    page = _drawn_page()
    images = [
        ("page (Pillow, 20px)", _png(page), "\n".join(PAGE)),
        ("photo of that page", _photo(page), "\n".join(PAGE)),
    ]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("chromium: not installed, the rendered pages are not measured")
        return images
    article = "".join(
        f"<h1>{line}</h1>" if i == 0 else f"<p>{line}</p>" for i, line in enumerate(ARTICLE)
    )  # one paragraph per line: the known text's line breaks are the page's
    html = (
        "<html><body style='font-family:Liberation Serif,serif;font-size:18px;margin:32px;width:900px'>"
        f"{article}</body></html>"
    )
    rows = "".join(
        f"<tr><td style='padding:3px 24px 3px 0;color:#555'>{k}</td><td>{v}</td></tr>" for k, v in SETTINGS_UI
    )
    ui = (
        "<html><body style='font-family:Liberation Sans,sans-serif;font-size:11px;margin:16px;background:#f4f5f7'>"
        f"<b style='font-size:13px'>Settings</b><table style='margin-top:8px'>{rows}</table></body></html>"
    )
    images.insert(0, ("article (Chromium)", _screenshot(chromium, html, 1000, 420), "\n".join(ARTICLE)))
    truth = "Settings\n" + "\n".join(f"{k} {v}" for k, v in SETTINGS_UI)
    images.insert(1, ("settings UI (11px)", _screenshot(chromium, ui, 640, 260), truth))
    return images


def _screenshot(chromium: str, html: str, width: int, height: int) -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        page, shot = Path(folder, "page.html"), Path(folder, "shot.png")
        page.write_text(html, encoding="utf-8")
        subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--window-size={width},{height}", f"--screenshot={shot}", page.as_uri()],
            capture_output=True, check=True, timeout=120,
        )  # fmt: skip
        return shot.read_bytes()


def _drawn_page() -> Image.Image:
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(FONTS / "liberation" / "LiberationSerif-Regular.ttf"), 20)
    image = Image.new("RGB", (1000, 60 + 34 * len(PAGE)), "white")
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(PAGE):
        draw.text((40, 30 + 34 * i), line, fill=(20, 20, 20), font=font)
    return image


def _photo(page: Image.Image) -> bytes:
    """The page as a phone might take it: paper-coloured, dimmer, turned 3 degrees, out of focus,
    sensor noise, a lossy JPEG."""
    from PIL import Image, ImageEnhance, ImageFilter

    paper = Image.new("RGB", page.size, (236, 228, 205))
    image = Image.blend(page, paper, 0.35)
    image = ImageEnhance.Contrast(image).enhance(0.8)
    image = image.rotate(3, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=(120, 110, 95))
    image = image.filter(ImageFilter.GaussianBlur(1.1))
    noise = Image.effect_noise(image.size, 18).convert("RGB")
    image = Image.blend(image, noise, 0.12)
    image = image.resize((int(image.width * 0.9), int(image.height * 0.9)), Image.Resampling.BILINEAR)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=55)
    return out.getvalue()


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
