// The agent-memory state of a workspace without writing (null generation: never used).
// Parameters: $workspace
// Returns: generation, lastConsolidatedAt, perspectives (list of {name, instruction, isDefault})
OPTIONAL MATCH (w:Workspace {name: $workspace})
RETURN w.currentGeneration AS generation, w.lastConsolidatedAt AS lastConsolidatedAt,
       COLLECT { MATCH (p:Perspective) WHERE p.workspace = $workspace
                 RETURN p {.name, .instruction, .isDefault} ORDER BY p.isDefault DESC, p.createdAt, p.name } AS perspectives
