// The bare indexed lookup of one claim by id: the baseline the benchmarks compare against.
// Parameters: $workspace, $id
// Returns: id
MATCH (c:Claim {id: $id})
WHERE c.workspace = $workspace
RETURN c.id AS id
