// The claims of a workspace for `donto export --format graphml|json|csv`: each claim's fields
// (no embedding), its subject and entity object, and its claim-to-claim links. With $valid_at, only
// the claims valid then; with $known_at, only those donto knew then (txFrom <= $known_at < txTo).
// With both null: every claim, retracted ones included.
// Parameters: $workspace, $valid_at, $known_at (datetimes, each null = no bound on that axis)
// Returns: one row per claim, ordered by id: claim (map of its fields; not its embedding),
//          links (list of {type: DERIVED_FROM | SUPPORTS | CONTRADICTS | SUPERSEDES, target: claim id})
MATCH (c:Claim {workspace: $workspace})
WHERE ($known_at IS NULL OR (c.txFrom <= $known_at AND (c.txTo IS NULL OR c.txTo > $known_at)))
  AND ($valid_at IS NULL OR ((c.validFrom IS NULL OR c.validFrom <= $valid_at) AND (c.validTo IS NULL OR c.validTo > $valid_at)))
OPTIONAL MATCH (c)-[link:DERIVED_FROM|SUPPORTS|CONTRADICTS|SUPERSEDES]->(target:Claim)
WITH c, collect({type: type(link), target: target.id}) AS links
RETURN c {.*, embedding: null, text: null} AS claim, [l IN links WHERE l.target IS NOT NULL] AS links
ORDER BY c.id
