// The predicate registry of a workspace. Predicates never declared count as cardinality 'many'.
// Parameters: $workspace
// Returns: name, cardinality, aliases — ordered by name
MATCH (p:Predicate)
WHERE p.workspace = $workspace
RETURN p.name AS name, p.cardinality AS cardinality, p.aliases AS aliases
ORDER BY name
