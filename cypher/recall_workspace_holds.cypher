// What kinds of memory a workspace holds, so that recall skips the arms that could find nothing
// there (a vector arm over an index holding none of the workspace's nodes widens its search in vain).
// Parameters: $workspace
// Returns: turns, claims (booleans)
RETURN EXISTS { MATCH (t:Turn) WHERE t.workspace = $workspace AND t.sessionExternalId IS NOT NULL
                                     AND t.externalId IS NOT NULL } AS turns,
       EXISTS { MATCH (c:Claim) WHERE c.workspace = $workspace AND c.id IS NOT NULL } AS claims
