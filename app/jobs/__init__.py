"""Durable background work: queues that live in the graph and the workers that drain them.

Kinds today: claim embeddings (`:PendingEmbedding`). Extraction jobs join here."""
