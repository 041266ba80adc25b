// Which subjects of a workspace already answer to any of the given keys (lower-cased names or
// aliases), other than the subject being changed: a name or alias belongs to one subject.
// Parameters: $workspace, $keys (list of lower-cased strings), $except_id (subject id or null)
// Returns: key, name (the subject that holds it)
UNWIND $keys AS key
MATCH (s:Subject)
WHERE s.workspace = $workspace AND key IN s.aliasKeys AND ($except_id IS NULL OR s.id <> $except_id)
RETURN key, s.name AS name
