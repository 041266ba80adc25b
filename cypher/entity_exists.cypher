// Does the workspace hold this entity?
// Parameters: $workspace, $key
// Returns: key — no row when it does not
MATCH (e:Entity {workspace: $workspace, key: $key})
RETURN e.key AS key
