// Links new claims to the claims they name (DERIVED_FROM, SUPPORTS, CONTRADICTS, SUPERSEDES, CORRECTS), in
// the write transaction of claims_write; the targets were checked to exist before (claims_existing).
// Parameters: $workspace, $links: list of {from (new claim id), to (target claim id),
//             type ('DERIVED_FROM' | 'SUPPORTS' | 'CONTRADICTS' | 'SUPERSEDES' | 'CORRECTS')}
// Returns: nothing
UNWIND $links AS link
MATCH (c:Claim {workspace: $workspace, id: link.from})
MATCH (target:Claim {workspace: $workspace, id: link.to})
CREATE (c)-[:$(link.type)]->(target)
