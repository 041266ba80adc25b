// Declares a predicate's cardinality ('one' | 'many') and aliases in the registry, as the user's
// declaration (declaredBy 'user': extraction never changes it). The service has checked, under the
// workspace's clock lock, that no other predicate answers to the name or an alias
// (predicate_name_holders). Alias proposals for the predicate are settled by it: one whose alias it
// now lists is accepted; one it accepted before and no longer lists, rejected (never proposed again).
// Parameters: $workspace, $name, $cardinality, $aliases (list of strings), $recorded_at (datetime)
// Returns: name, cardinality, aliases, declaredBy
MERGE (p:Predicate {workspace: $workspace, name: $name})
  ON CREATE SET p.createdAt = $recorded_at
SET p.cardinality = $cardinality, p.aliases = $aliases, p.updatedAt = $recorded_at, p.declaredBy = 'user'
WITH p
CALL (p) {
  MATCH (a:AliasProposal)-[:ALIAS_OF]->(p)
  WITH a, CASE WHEN a.alias IN $aliases THEN 'accepted' WHEN a.state = 'accepted' THEN 'rejected' ELSE a.state END
          AS state
  WHERE state <> a.state
  SET a.state = state, a.settledAt = $recorded_at
}
RETURN p.name AS name, p.cardinality AS cardinality, p.aliases AS aliases, p.declaredBy AS declaredBy
