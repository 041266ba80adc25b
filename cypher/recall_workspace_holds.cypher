// What kinds of memory a workspace holds, read in the same statement as recall's arms (every arm
// runs: a vector arm over a kind the workspace lacks checks the same and leaves its index alone,
// a full-text or time arm finds nothing at the cost of a lookup). A read as of the
// past widens only the arms of kinds the workspace holds (the others would widen in vain), and only
// a workspace holding claims has its pending claims embedded before its claim arm is trusted.
// Parameters: $workspace
// Returns: one row, rows: a one-element list of {turns, claims} (booleans)
RETURN [{turns: EXISTS { MATCH (t:Turn) WHERE t.workspace = $workspace AND t.sessionExternalId IS NOT NULL
                                           AND t.externalId IS NOT NULL },
         claims: EXISTS { MATCH (c:Claim) WHERE c.workspace = $workspace AND c.id IS NOT NULL }}] AS rows
