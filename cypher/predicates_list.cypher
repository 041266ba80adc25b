// The predicate registry of a workspace. Predicates never declared count as cardinality 'many'.
// declaredBy: 'user' (PUT /v1/predicates; declarations made before it was recorded count as the
// user's), 'model' (an extraction model marked a fact single-valued) or 'default' (donto's default
// single-valued predicates). Alias proposals still open are listed with each predicate.
// Parameters: $workspace
// Returns: name, cardinality, aliases, declaredBy, proposals (list of {alias, similarity,
//          proposedBy, proposedAt}) — ordered by name
MATCH (p:Predicate)
WHERE p.workspace = $workspace
RETURN p.name AS name, p.cardinality AS cardinality, p.aliases AS aliases,
       coalesce(p.declaredBy, 'user') AS declaredBy,
       [(a:AliasProposal)-[:ALIAS_OF]->(p) WHERE a.state = 'proposed'
        | a {.alias, .similarity, .proposedBy, .proposedAt}] AS proposals
ORDER BY name
