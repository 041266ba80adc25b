// Records extraction's proposals that a new predicate is an alias of a registered one (their
// phrasings' embeddings at least the measured threshold apart): one (:AliasProposal)-[:ALIAS_OF]->
// (:Predicate) per pair, state 'proposed' until a declaration of the predicate accepts it (lists
// the alias) or it is rejected; a pair proposed again keeps its state, so a rejection sticks.
// Parameters: $workspace, $proposals (list of {id, alias, predicate, similarity}), $proposed_by (text),
//             $recorded_at (datetime)
// Returns: alias, predicate, similarity, state — one row per proposal
UNWIND $proposals AS row
MATCH (p:Predicate {workspace: $workspace, name: row.predicate})
MERGE (a:AliasProposal {workspace: $workspace, alias: row.alias, predicate: row.predicate})
  ON CREATE SET a.id = row.id, a.similarity = row.similarity, a.proposedBy = $proposed_by, a.proposedAt = $recorded_at,
                a.state = 'proposed'
MERGE (a)-[:ALIAS_OF]->(p)
RETURN a.alias AS alias, a.predicate AS predicate, a.similarity AS similarity, a.state AS state
