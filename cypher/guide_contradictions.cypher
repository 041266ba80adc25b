// Browser guide: contradictions kept side by side, never resolved. Each CONTRADICTS pair of the
// workspace (about $entity, or all), with both claims' values, intervals and whether each is
// still known.
// Parameters: $workspace, $entity (entity key, or null: every pair)
// Returns: one row per pair: pair (the two claims and the CONTRADICTS relationship, for drawing),
//          subject, predicate, one, other (the two objects), oneValidFrom, otherValidFrom,
//          oneKnown, otherKnown (false: retracted) — at most 50 rows
MATCH pair = (a:Claim {workspace: $workspace})-[:CONTRADICTS]->(b:Claim)
WHERE $entity IS NULL OR $entity IN [a.subject, a.object, b.subject, b.object]
RETURN pair, a.subject AS subject, a.predicate AS predicate, a.object AS one, b.object AS other,
       a.validFrom AS oneValidFrom, b.validFrom AS otherValidFrom,
       a.txTo IS NULL AS oneKnown, b.txTo IS NULL AS otherKnown
ORDER BY subject, predicate
LIMIT 50
