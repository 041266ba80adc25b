// Browser guide: what a claim is. One claim of the workspace ($claim, or the one recorded last),
// drawn with its subject and object entities, and its two intervals side by side: valid time
// (when it was true in the world) and transaction time (when donto knew it).
// Parameters: $workspace, $claim (claim id, or null: the claim recorded last)
// Returns: claim ("subject · predicate · object"), validFrom, validTo, knownFrom (txFrom),
//          knownUntil (txTo: null while still known), retractionReason, and the graph: c, s, o and
//          the SUBJECT / OBJECT relationships
MATCH (c:Claim {workspace: $workspace})
WHERE $claim IS NULL OR c.id = $claim
WITH c ORDER BY c.txFrom DESC LIMIT 1
MATCH (c)-[subjectOf:SUBJECT]->(s:Entity)
OPTIONAL MATCH (c)-[objectOf:OBJECT]->(o:Entity)
RETURN c.subject + ' · ' + c.predicate + ' · ' + c.object AS claim,
       c.validFrom AS validFrom, c.validTo AS validTo, c.txFrom AS knownFrom, c.txTo AS knownUntil,
       c.retractionReason AS retractionReason, c, subjectOf, s, objectOf, o
