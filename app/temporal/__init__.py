"""Time on donto's two axes: instants (parsing, driver values), the time scope of a read, and
time phrases resolved against a reference time."""

from donto.temporal.instants import iso, parse_instant, to_native, utc_now
from donto.temporal.scope import TimeScope

__all__ = ["TimeScope", "iso", "parse_instant", "to_native", "utc_now"]
