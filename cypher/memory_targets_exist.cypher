// Which of the given ids name a node of the workspace, and what kind: for checking the ids a
// write refers to (related_to, cites, sources, signals) before writing anything.
// Parameters: $workspace, $ids (list of strings)
// Returns: id, kind (Observation, Understanding, Claim, Document or Subject), active (false for a superseded understanding)
UNWIND $ids AS id
MATCH (n:Observation|Understanding|Claim|Document|Subject {id: id})
WHERE n.workspace = $workspace
RETURN id, head([l IN labels(n) WHERE l IN ['Observation', 'Understanding', 'Claim', 'Document', 'Subject']]) AS kind,
       NOT EXISTS { (n)-[:SUPERSEDED_BY]->() } AS active
