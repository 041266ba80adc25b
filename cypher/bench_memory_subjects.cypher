// Benchmark bulk load (bench/memory.py, never donto itself): synthetic subjects with the properties
// subject_create writes, a batch per call. Each gets a random unit vector of $dimensions (no model).
// Parameters: $workspace, $model (embedding model name), $dimensions, $recorded_at (datetime),
//   $rows (list of {id, name})
// Returns: written (count)
UNWIND $rows AS row
WITH row, [i IN range(1, $dimensions) | rand() - 0.5] AS raw
WITH row, raw, sqrt(reduce(sum = 0.0, x IN raw | sum + x * x)) AS norm
CREATE (s:Subject {workspace: $workspace, id: row.id, name: row.name, tags: [], aliases: [],
                   aliasKeys: [toLower(row.name)], embedding: [x IN raw | x / norm], embeddingModel: $model,
                   createdAt: $recorded_at, updatedAt: $recorded_at, version: 1})
RETURN count(s) AS written
