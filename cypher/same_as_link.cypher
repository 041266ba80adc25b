// Links entity keys that denote the same thing: one (:Entity)-[:SAME_AS]->(:Entity) per pair, in
// transaction time like a claim (txFrom now, txTo set when retracted; never deleted, never a merge
// of the two nodes). A pair already linked (either direction) keeps its link and gets no second
// one; with $renew false a pair once linked and since retracted is not linked again either (a
// proposal never undoes a retraction), with $renew true it gets a new link.
// Parameters: $workspace, $recorded_at (datetime), $renew (boolean), $recorded_by (string or null)
//             $links: list of {index, a, b (entity keys), id, reason, method, score (float or null)}
// Returns: index, id (the new link's or the one kept), created (boolean), txFrom — no row for a
//          link whose key a or b the workspace does not hold
UNWIND $links AS link
MATCH (a:Entity {workspace: $workspace, key: link.a})
MATCH (b:Entity {workspace: $workspace, key: link.b})
OPTIONAL MATCH (a)-[prior:SAME_AS]-(b)
  WHERE prior.txTo IS NULL OR NOT $renew
WITH link, a, b, prior ORDER BY prior.txTo IS NULL DESC  // a live link first
WITH link, a, b, head(collect(prior)) AS prior
CALL (link, a, b, prior) {
  WITH link, a, b WHERE prior IS NULL
  CREATE (a)-[r:SAME_AS {id: link.id, reason: link.reason, method: link.method, score: link.score,
                         txFrom: $recorded_at, recordedBy: $recorded_by}]->(b)
  RETURN r, true AS created
UNION
  WITH prior WHERE prior IS NOT NULL
  RETURN prior AS r, false AS created
}
RETURN link.index AS index, r.id AS id, created, r.txFrom AS txFrom
ORDER BY index
