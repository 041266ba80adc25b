"""The rule that says whether a document's new revision is a version or a correction (app/documents/versions.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from donto.documents.versions import Placed, Previous, place
from donto.errors import InvalidInput

pytestmark = pytest.mark.unit

JAN, JUN = datetime(2024, 1, 15, tzinfo=UTC), datetime(2024, 6, 1, tzinfo=UTC)
DATED = Previous(occurred_at=JAN, valid_from=JAN)


def test_a_later_date_is_a_version_and_the_same_date_or_none_a_correction_keeping_the_start():
    assert place(None, JUN, DATED) == Placed("version", JUN)
    assert place(None, JAN, DATED) == Placed("correction", JAN)
    assert place(None, None, DATED) == Placed("correction", JAN)
    assert place(None, None, None) == Placed("version", None)


def test_the_asked_kind_overrides_the_dates():
    assert place("correction", JUN, DATED) == Placed("correction", JAN)
    assert place("version", JUN, Previous(None, None)) == Placed("version", JUN)
    assert place(None, JUN, Previous(None, None)) == Placed("correction", JUN)  # undated before: no start to keep


@pytest.mark.parametrize(
    ("asked", "occurred_at", "previous", "named", "field"),
    [
        (None, datetime(2023, 1, 1, tzinfo=UTC), DATED, True, "occurred_at"),
        ("version", JAN, DATED, True, "occurred_at"),
        ("version", None, DATED, True, "occurred_at"),
        ("correction", JUN, None, True, "revision_kind"),
        ("version", JUN, None, False, "revision_kind"),
    ],
)
def test_what_fits_neither_kind_names_its_field(asked, occurred_at, previous, named, field):
    with pytest.raises(InvalidInput) as refused:
        place(asked, occurred_at, previous, named=named)
    assert refused.value.field == field
