// Which of these content keys name a claim corrected since: one whose transaction time a newer
// version closed (a CORRECTS chain from a live claim). Memorize does not write such a fact again (a
// job run again over the text it corrected from, or another restating what was corrected): the
// correction stands until a new one is stated.
// Parameters: $workspace, $keys (list of content keys)
// Returns: contentKey, id (the corrected claim), by (the live claim that is its newest version)
UNWIND $keys AS key
MATCH (c:Claim {workspace: $workspace, contentKey: key})
USING INDEX c:Claim(workspace, contentKey)
WHERE c.txTo IS NOT NULL
MATCH (newest:Claim)-[:CORRECTS*1..16]->(c)
WHERE newest.txTo IS NULL
WITH key, c, newest ORDER BY c.txTo DESC, newest.id
RETURN key AS contentKey, head(collect(c.id)) AS id, head(collect(newest.id)) AS by
