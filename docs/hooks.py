"""mkdocs hooks: the reference pages that the code itself can write are generated when the site is built.

- reference/openapi.md: every operation of the live OpenAPI schema, from `donto.api.main.create_app()`
  (making the app needs no database: the Memory is made in its lifespan, which a build never starts);
  the schema itself is published beside it as openapi.json.
- reference/cli.md: `donto --help` and every command's help, from the parser in `app/cli.py`.
- reference/python-client.md: every method of donto.Client with the REST operation it calls and the
  first line of its docstring, read from the class itself.

A page marks where the generated text goes with an HTML comment (`<!-- donto-openapi -->`,
`<!-- donto-cli-help -->`, `<!-- donto-client-methods -->`); anything that fails here fails the build.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
from functools import cache
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
METHODS = ("get", "put", "post", "patch", "delete")


def on_config(config):
    # The checkout's code, not whatever donto the environment has installed.
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return config


@cache
def openapi() -> dict:
    from donto.api.main import create_app

    return create_app().openapi()


def on_files(files, config):
    files.append(File.generated(config, "openapi.json", content=json.dumps(openapi(), indent=2)))
    return files


def on_page_markdown(markdown, page, config, files):
    if "<!-- donto-openapi -->" in markdown:
        markdown = markdown.replace("<!-- donto-openapi -->", openapi_markdown(openapi()))
    if "<!-- donto-cli-help -->" in markdown:
        markdown = markdown.replace("<!-- donto-cli-help -->", cli_markdown())
    if "<!-- donto-client-methods -->" in markdown:
        markdown = markdown.replace("<!-- donto-client-methods -->", client_markdown())
    return markdown


def schema_name(schema: dict | None) -> str:
    if not schema:
        return ""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if schema.get("type") == "array":
        return f"array of {schema_name(schema.get('items')) or 'values'}"
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(filter(None, (schema_name(s) for s in schema[key])))
    return schema.get("type", "")


def cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def openapi_markdown(spec: dict) -> str:
    groups: dict[str, list[tuple[str, str, dict]]] = {}
    for path, item in spec["paths"].items():
        for method in METHODS:
            if method in item:
                operation = item[method]
                tag = (operation.get("tags") or [path.split("/")[2] if path.startswith("/v1/") else "other"])[0]
                groups.setdefault(tag, []).append((method, path, operation))
    count = sum(len(ops) for ops in groups.values())
    out = [f"{spec['info']['title']} {spec['info']['version']}: {count} operations.", ""]
    for tag in sorted(groups):
        out += [f"## {tag}", ""]
        for method, path, operation in groups[tag]:
            out += [f"### `{method.upper()} {path}`", ""]
            if operation.get("summary"):
                out += [operation["summary"], ""]
            if operation.get("description"):
                out += [operation["description"].strip(), ""]
            params = operation.get("parameters", [])
            if params:
                out += ["| parameter | in | required | type | description |", "|---|---|---|---|---|"]
                for p in params:
                    out.append(
                        f"| `{p['name']}` | {p['in']} | {'yes' if p.get('required') else 'no'} | "
                        f"{cell(schema_name(p.get('schema')))} | {cell(p.get('description', ''))} |"
                    )
                out.append("")
            body = operation.get("requestBody", {}).get("content", {})
            for media, content in body.items():
                out += [f"Request body ({media}): `{schema_name(content.get('schema')) or 'any'}`", ""]
            responses = operation.get("responses", {})
            if responses:
                out += ["| status | description | body |", "|---|---|---|"]
                for status, response in responses.items():
                    shapes = ", ".join(
                        f"`{schema_name(c.get('schema')) or media}`" for media, c in response.get("content", {}).items()
                    )
                    out.append(f"| {status} | {cell(response.get('description', ''))} | {shapes} |")
                out.append("")
    return "\n".join(out)


def help_of(argv: list[str]) -> str:
    from donto.cli import main

    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.suppress(SystemExit):
        main([*argv, "--help"])
    return stdout.getvalue().rstrip()


def cli_markdown() -> str:
    os.environ["COLUMNS"] = "110"  # argparse wraps to the terminal's width; a page has none
    top = help_of([])
    commands = re.search(r"\{([a-z0-9,]+)\}", top)
    if commands is None:
        raise RuntimeError("donto --help lists no commands")
    out = ["### `donto`", "", "```text", top, "```", ""]
    for command in commands.group(1).split(","):
        text = help_of([command])
        out += [f"### `donto {command}`", "", "```text", text, "```", ""]
        actions = re.search(r"\{([a-z0-9,]+)\}", text.split("\n", 1)[0])
        if actions and command == "keys":
            for action in actions.group(1).split(","):
                out += [f"#### `donto {command} {action}`", "", "```text", help_of([command, action]), "```", ""]
    return "\n".join(out)


SEGMENT = re.compile(r"\{segment\((\w+)\)\}")  # f"/v1/claims/{segment(claim_id)}" -> /v1/claims/{claim_id}
PATH_PARAMETER = r"{\1}"


def client_markdown() -> str:
    import inspect

    from donto.client import Client

    rows = ["| method | calls | what it does |", "|---|---|---|"]
    for name, method in vars(Client).items():
        if name.startswith("_") or not inspect.isfunction(method) or name in ("request", "close"):
            continue
        source = inspect.getsource(method)
        calls = re.findall(r'"(GET|POST|PUT|PATCH|DELETE)",\s*f?"([^"]+)"', source)
        via = re.findall(r"self\.(\w+)\(", source)
        if calls:
            where = "<br>".join(f"`{verb} {SEGMENT.sub(PATH_PARAMETER, path)}`" for verb, path in calls)
        else:
            where = "<br>".join(f"pages with `{v}`" for v in via if v in vars(Client) and v != "_call") or "—"
        signature = str(inspect.signature(method)).replace("(self, ", "(").replace("(self)", "()")
        signature = re.sub(r" -> .*$", "", signature).replace("'", "")
        doc = " ".join((inspect.getdoc(method) or "").split("\n\n")[0].split())
        rows.append(f"| `{name}{cell(signature)}` | {where} | {cell(doc)} |")
    if len(rows) < 40:
        raise RuntimeError("donto.Client has fewer methods than the API has verbs")
    return "\n".join(rows)
