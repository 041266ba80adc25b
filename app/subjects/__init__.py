"""The subject layer (seed 002): subjects, observations, understandings, intersections, orient and
bring_to_mind, for agents that curate their own memory. Services here, like every other package
under app/, are assembled by app/memory.py and reached through app/api and app/mcp.

Empty for now."""
