// The Venn intersection: observations ABOUT every one of the given subjects, newest first, and
// how many there are in all (the page holds at most $limit). It walks the observations of the
// subject with the fewest ABOUT edges and keeps those about all the others too, so the cost
// follows the smallest subject, not the largest.
// Parameters: $workspace, $subject_ids (list of distinct subject ids), $limit
// Returns: count, observations (list of maps: id, text, contentHash, kind, confidence, generation,
//   observedAt, createdAt, sessionId, subjects)
UNWIND $subject_ids AS sid
MATCH (s:Subject {id: sid}) WHERE s.workspace = $workspace
WITH s ORDER BY COUNT { (s)<-[:ABOUT]-() }
WITH collect(s) AS subjects
WHERE size(subjects) = size($subject_ids)
WITH head(subjects) AS smallest, tail(subjects) AS others
MATCH (smallest)<-[:ABOUT]-(o:Observation)
WHERE all(x IN others WHERE EXISTS { (o)-[:ABOUT]->(x) })
WITH o ORDER BY o.createdAt DESC, o.id DESC
WITH collect(o) AS found
RETURN size(found) AS count,
       [o IN found[0..$limit] | o {.id, .text, .contentHash, .kind, .confidence, .generation, .observedAt, .createdAt,
         .sessionId, subjects: COLLECT { MATCH (o)-[:ABOUT]->(t:Subject) RETURN t.name ORDER BY t.name }}] AS observations
