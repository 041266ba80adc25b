"""Identifiers donto hands out."""

from __future__ import annotations

import os
import time


def uuid7() -> str:
    """A time-ordered UUID (RFC 9562 v7): ids sort roughly by creation, which keeps keyset
    pagination in write order."""
    ms = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10), "big")
    value = (
        (ms & ((1 << 48) - 1)) << 80 | 0x7 << 76 | (rand >> 68 & 0xFFF) << 64 | 0b10 << 62 | (rand & ((1 << 62) - 1))
    )
    h = f"{value:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
