// For each given subject, how many observations are ABOUT it in all, and how many about it
// alone among the given ones (its part of the Venn diagram outside every overlap).
// Parameters: $workspace, $subject_ids (list of distinct subject ids)
// Returns: id, name, total, alone — in the order of $subject_ids
UNWIND range(0, size($subject_ids) - 1) AS i
MATCH (s:Subject {id: $subject_ids[i]})
WHERE s.workspace = $workspace
RETURN s.id AS id, s.name AS name,
       COUNT { (o:Observation)-[:ABOUT]->(s) } AS total,
       COUNT { MATCH (o:Observation)-[:ABOUT]->(s)
               WHERE NOT EXISTS { (o)-[:ABOUT]->(x:Subject) WHERE x.id IN $subject_ids AND x <> s } } AS alone
ORDER BY i
