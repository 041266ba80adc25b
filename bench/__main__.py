"""Benchmarks, run from a checkout: `python -m bench ingest|walk|locomo ...` (not shipped in the
package). Each builds what it measures through donto.memory.Memory or the REST API, like any shell."""

from __future__ import annotations

import sys

from bench.cli import main

sys.exit(main())
