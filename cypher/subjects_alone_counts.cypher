// For each given subject, how many observations are ABOUT it in all, and how many about it
// alone among the given ones (its part of the Venn diagram outside every overlap). What it
// shares with each other subject is found from whichever of the two has fewer ABOUT edges.
// Parameters: $workspace, $subject_ids (list of distinct subject ids)
// Returns: id, name, total, alone — in the order of $subject_ids
UNWIND range(0, size($subject_ids) - 1) AS i
MATCH (s:Subject {id: $subject_ids[i]})
WHERE s.workspace = $workspace
CALL (s) {
  UNWIND $subject_ids AS xid
  MATCH (x:Subject {id: xid}) WHERE x <> s
  WITH s, x, COUNT { (s)<-[:ABOUT]-() } <= COUNT { (x)<-[:ABOUT]-() } AS sIsSmaller
  WITH CASE WHEN sIsSmaller THEN s ELSE x END AS small, CASE WHEN sIsSmaller THEN x ELSE s END AS big
  OPTIONAL MATCH (small)<-[:ABOUT]-(o:Observation) WHERE EXISTS { (o)-[:ABOUT]->(big) }
  RETURN count(DISTINCT o) AS shared
}
WITH i, s, shared, COUNT { (s)<-[:ABOUT]-() } AS total
RETURN s.id AS id, s.name AS name, total, total - shared AS alone
ORDER BY i
