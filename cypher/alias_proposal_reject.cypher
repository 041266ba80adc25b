// Rejects a proposal that a predicate is an alias of another: it is never proposed again, and a
// declaration that lists the alias later accepts it after all.
// Parameters: $workspace, $predicate, $alias, $recorded_at (datetime)
// Returns: state — at most one row
MATCH (a:AliasProposal {workspace: $workspace, alias: $alias, predicate: $predicate})
SET a.state = CASE WHEN a.state = 'accepted' THEN a.state ELSE 'rejected' END, a.settledAt = $recorded_at
RETURN a.state AS state
