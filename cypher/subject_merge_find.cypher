// The merge a duplicate subject's name (or merge id) refers to, and whether its name is taken now.
// Parameters: $workspace, $ref (merge id or the duplicate's name)
// Returns: mergeId, duplicate, primary, nameTaken (boolean)
MATCH (d:MergedSubject)-[:MERGED_INTO]->(p:Subject)
WHERE d.workspace = $workspace AND (d.mergeId = $ref OR d.name = $ref)
RETURN d.mergeId AS mergeId, d.name AS duplicate, p.name AS primary,
       EXISTS { MATCH (x:Subject {workspace: $workspace, name: d.name}) } AS nameTaken
ORDER BY d.mergedAt DESC
LIMIT 1
