// Browser guide: what an extraction job made of its text. The job that wrote $claim, else the
// workspace's latest job that stated facts: every fact its model stated, in order, with what
// became of it, and the graph (:Job)-[:STATED]->(:JobFact)-[:BECAME]->(:Claim).
// Parameters: $workspace, $claim (claim id, or null)
// Returns: one row per fact: seq, pass, stated_as (the fact as stated, or what the model wrote),
//          outcome (created | existing | corroborated | corrected | repeated | rejected), why (a
//          rejection's reason, why its quote was not anchored, or what became of a correction it
//          states), quote, and the paths stated (job -> fact)
//          and became (fact -> claim; null for a rejected fact)
CALL () {
  MATCH (j:Job)
  WHERE j.workspace = $workspace AND j.createdAt IS NOT NULL  // the (workspace, createdAt) index, newest first
    AND EXISTS { (j)-[:STATED]->(:JobFact) }
    AND ($claim IS NULL OR EXISTS { (j)-[:STATED]->(:JobFact)-[:BECAME]->(:Claim {id: $claim}) })
  RETURN j
  ORDER BY j.createdAt DESC
  LIMIT 1
}
MATCH stated = (j)-[:STATED]->(f:JobFact)
OPTIONAL MATCH became = (f)-[:BECAME]->(:Claim)
RETURN f.seq AS seq, f.pass AS pass, f.text AS stated_as, f.outcome AS outcome,
       coalesce(f.reason, f.correction, f.unanchoredReason) AS why, f.quote AS quote, stated, became
ORDER BY seq
