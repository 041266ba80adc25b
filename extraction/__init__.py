"""Text in, candidate facts out: donto's extraction library (seeds 001 and 003).

A library, not a service: it turns a passage or a document into candidate facts, each anchored to
the words it rests on where the model quoted them faithfully, through one OpenAI-compatible LLM
client, and knows nothing of Neo4j, HTTP or the rest of donto. It imports nothing from `app`;
`app` calls it. tests/unit/test_layers.py keeps it so.

- llm.py      the chat-completions client (retries, Retry-After, structured output, token usage)
- facts.py    the fact shape and the salvaging reader of replies (JSON lines or {"facts": [...]})
- text.py     chunking long text, anchoring quotes to offsets
- prompts.py  the instructions, the five apertures, the deep pass's block of facts already found
- engine.py   the modes (single, exhaustive, deep, lenses), dedup, premises and the per-pass audit
"""
