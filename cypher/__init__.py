"""donto's Cypher: schema.cypher and one named query per file, shipped as package data.

Installed as `app.cypher` (pyproject.toml maps this folder there), so a wheel carries every query;
app/graph/queries.py reads them with importlib.resources. Nothing here is Python but this line."""
