// Registers predicates extraction found single-valued, with cardinality 'one': marked so by the
// model ('model'), or one of donto's default single-valued predicates ('default'). Only predicates
// the registry does not hold yet: a declaration already there (a user's above all) is left as it is.
// Parameters: $workspace, $predicates (list of {name, declaredBy}), $recorded_at (datetime)
// Returns: name, declaredBy — one row per predicate registered now
UNWIND $predicates AS row
MERGE (p:Predicate {workspace: $workspace, name: row.name})
  ON CREATE SET p.createdAt = $recorded_at, p.updatedAt = $recorded_at, p.cardinality = 'one', p.aliases = [],
                p.declaredBy = row.declaredBy
WITH p
WHERE p.createdAt = $recorded_at
RETURN p.name AS name, p.declaredBy AS declaredBy
