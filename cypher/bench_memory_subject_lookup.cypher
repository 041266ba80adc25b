// The bare indexed lookup of one subject by id: the floor bench/memory.py sets beside the memory verbs.
// Parameters: $workspace, $id
// Returns: id, name
MATCH (s:Subject {id: $id})
WHERE s.workspace = $workspace
RETURN s.id AS id, s.name AS name
