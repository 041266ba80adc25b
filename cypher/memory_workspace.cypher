// The agent-memory state of a workspace: its current consolidation generation, when it was last
// consolidated, and its perspectives (the five defaults are made on first use).
// Parameters: $workspace, $defaults (list of {name, instruction}), $now (datetime)
// Returns: generation, lastConsolidatedAt, perspectives (list of {name, instruction, isDefault})
MERGE (w:Workspace {name: $workspace})
  ON CREATE SET w.createdAt = $now
SET w.currentGeneration = coalesce(w.currentGeneration, 0)
WITH w
CALL (w) {
  UNWIND $defaults AS d
  MERGE (p:Perspective {workspace: w.name, name: d.name})
    ON CREATE SET p.instruction = d.instruction, p.isDefault = true, p.createdAt = $now
}
RETURN w.currentGeneration AS generation, w.lastConsolidatedAt AS lastConsolidatedAt,
       COLLECT { MATCH (p:Perspective) WHERE p.workspace = w.name
                 RETURN p {.name, .instruction, .isDefault} ORDER BY p.isDefault DESC, p.createdAt, p.name } AS perspectives
