"""How a validation error's location becomes the `field` a 4xx names: as the client sent it."""

from __future__ import annotations

import pytest

from donto.errors import field_path

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("loc", "field"),
    [
        (("body", "claims", 3, "valid_from"), "claims[3].valid_from"),
        (("header", "x-donto-session"), "x-donto-session"),  # a hyphen is part of a header's name
        (("query", "valid_at"), "valid_at"),
        # the member of a union pydantic tried is not something the client sent
        (("body", "claims", 0, "object", "literal", "value", "str"), "claims[0].object.literal.value"),
        (("body", "value", "function-after[_matches(), str]"), "value"),
        (("body", "value", "constrained-str"), "value"),
    ],
)
def test_an_error_names_the_field_as_the_client_sent_it(loc, field):
    assert field_path(loc) == field
