"""`donto` and `python -m donto`: the command line, or, in an install with the client only, what
to install for the server."""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from donto.cli import main as cli
    except ModuleNotFoundError as missing:
        print(
            f"donto: this install has the Python client only ({missing.name} is missing); "
            "the server and its command line need its server extra, from the checkout or the wheel it was "
            'installed from: pip install "./donto[server]" (or "dist/donto_memory-<version>-py3-none-any.whl[server]")',
            file=sys.stderr,
        )
        return 2
    return cli()


if __name__ == "__main__":
    raise SystemExit(main())
