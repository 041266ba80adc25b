// What kinds of memory a workspace holds, read in the same statement as recall's arms (every arm
// runs: a vector arm over a kind the workspace lacks checks the same and leaves its index alone,
// a full-text or time arm finds nothing at the cost of a lookup). A read as of the
// past widens only the arms of kinds the workspace holds (the others would widen in vain), and only
// a workspace holding claims or documents has its pending embeddings made before its arms are trusted.
// Parameters: $workspace
// Returns: one row, rows: a one-element list of {turns, claims, documents} (booleans)
RETURN [{turns: EXISTS { MATCH (t:Turn) WHERE t.workspace = $workspace AND t.sessionExternalId IS NOT NULL
                                           AND t.externalId IS NOT NULL },
         claims: EXISTS { MATCH (c:Claim) WHERE c.workspace = $workspace AND c.id IS NOT NULL },
         documents: EXISTS { MATCH (d:Document) WHERE d.workspace = $workspace AND d.sha256 IS NOT NULL }}] AS rows
