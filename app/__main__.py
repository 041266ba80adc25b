"""`python -m donto`: the same command line as `donto`."""

from donto.cli import main

raise SystemExit(main())
