// Browser guide: one claim's versions on both axes — what donto believed when. From $claim (or,
// with null, the claim most recently corrected or replaced, else the one recorded last), every
// claim linked to it by CORRECTS (a corrected version: donto believed the old one until the
// correction) or SUPERSEDES (a replacement: the world changed, both stay believed, each for its own
// valid time), in the order donto came to believe them.
// Parameters: $workspace, $claim (claim id, or null)
// Returns: version ("subject · predicate · object"), validFrom, validTo (when it was true in the
//          world), believedFrom (txFrom), believedUntil (txTo: null while believed), correctedBy /
//          supersededBy (the newer version's id, or null), retractionReason, and the graph: v and the
//          CORRECTS / SUPERSEDES relationships between the versions
MATCH (start:Claim {workspace: $workspace})
WHERE $claim IS NULL OR start.id = $claim
WITH start ORDER BY EXISTS { (start)-[:CORRECTS|SUPERSEDES]-(:Claim) } DESC, start.txFrom DESC LIMIT 1
MATCH (start)-[:CORRECTS|SUPERSEDES]-{0,20}(v:Claim)
WITH DISTINCT v
OPTIONAL MATCH (v)-[link:CORRECTS|SUPERSEDES]->(:Claim)
RETURN v.subject + ' · ' + v.predicate + ' · ' + v.object AS version,
       v.validFrom AS validFrom, v.validTo AS validTo, v.txFrom AS believedFrom, v.txTo AS believedUntil,
       head([(newer:Claim)-[:CORRECTS]->(v) | newer.id]) AS correctedBy,
       head([(newer:Claim)-[:SUPERSEDES]->(v) | newer.id]) AS supersededBy,
       v.retractionReason AS retractionReason, v, collect(link) AS links
ORDER BY believedFrom
