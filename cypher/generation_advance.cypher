// Closes a consolidation pass: what is written from now on belongs to the next generation.
// Parameters: $workspace, $now (datetime)
// Returns: previous, generation, lastConsolidatedAt
MATCH (w:Workspace {name: $workspace})
WITH w, w.currentGeneration AS previous
SET w.currentGeneration = previous + 1, w.lastConsolidatedAt = $now
RETURN previous, w.currentGeneration AS generation, w.lastConsolidatedAt AS lastConsolidatedAt
