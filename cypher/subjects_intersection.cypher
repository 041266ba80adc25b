// The Venn intersection: observations ABOUT every one of the given subjects, newest first, and
// how many there are in all (the page holds at most $limit).
// Parameters: $workspace, $subject_ids (list of distinct subject ids), $limit
// Returns: count, observations (list of maps: id, text, contentHash, kind, confidence, generation,
//   observedAt, createdAt, sessionId, subjects)
UNWIND $subject_ids AS sid
MATCH (s:Subject {id: sid})<-[:ABOUT]-(o:Observation)
WHERE s.workspace = $workspace AND o.workspace = $workspace
WITH o, count(DISTINCT s) AS matched
WHERE matched = size($subject_ids)
WITH o ORDER BY o.createdAt DESC, o.id DESC
WITH collect(o) AS found
RETURN size(found) AS count,
       [o IN found[0..$limit] | o {.id, .text, .contentHash, .kind, .confidence, .generation, .observedAt, .createdAt,
         .sessionId, subjects: COLLECT { MATCH (o)-[:ABOUT]->(t:Subject) RETURN t.name ORDER BY t.name }}] AS observations
