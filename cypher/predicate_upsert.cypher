// Declares a predicate's cardinality ('one' | 'many') and aliases in the registry. The service has
// checked, under the workspace's clock lock, that no other predicate answers to the name or an alias
// (predicate_name_holders).
// Parameters: $workspace, $name, $cardinality, $aliases (list of strings), $recorded_at (datetime)
// Returns: name, cardinality, aliases
MERGE (p:Predicate {workspace: $workspace, name: $name})
  ON CREATE SET p.createdAt = $recorded_at
SET p.cardinality = $cardinality, p.aliases = $aliases, p.updatedAt = $recorded_at
RETURN p.name AS name, p.cardinality AS cardinality, p.aliases AS aliases
