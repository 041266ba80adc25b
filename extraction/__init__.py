"""Text in, candidate facts out: donto's extraction library (seeds 001 and 003).

A library, not a service: it turns a passage or a document into candidate claims (with the spans
that anchor them) through an OpenAI-compatible LLM endpoint, and knows nothing of Neo4j, HTTP or
the rest of donto. It imports nothing from `app`; `app` calls it (app/jobs runs extraction jobs
and writes what it returns through the claim service). tests/unit/test_layers.py keeps it so.

Empty for now: this is where chunking, the extraction passes (single / exhaustive / deep),
line-oriented output with salvage, anchoring and dedup go."""
