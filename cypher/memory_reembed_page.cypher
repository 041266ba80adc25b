// A page of memory items to embed again (`donto reembed`), across every workspace, in id order:
// observations and understandings with their subjects' names, and subjects with their summary.
// Parameters: $after (the last id of the previous page, '' first), $limit
// Returns: id, label ('Observation' | 'Understanding' | 'Subject'), workspace, text, summary, name, subjects
CALL () {
  MATCH (n:Observation) WHERE n.id > $after RETURN n
  UNION
  MATCH (n:Understanding) WHERE n.id > $after RETURN n
  UNION
  MATCH (n:Subject) WHERE n.id > $after RETURN n
}
WITH n ORDER BY n.id LIMIT $limit
RETURN n.id AS id, head([l IN labels(n) WHERE l IN ['Observation', 'Understanding', 'Subject']]) AS label,
       n.workspace AS workspace, n.text AS text, n.summary AS summary, n.name AS name,
       COLLECT { MATCH (n)-[:ABOUT|UNDERSTANDS]->(s:Subject) RETURN s.name ORDER BY s.name } AS subjects
