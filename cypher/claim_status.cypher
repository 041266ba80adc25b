// Premise walk: is each claim still safe to act on at $valid_at, as donto knew it at $known_at?
//
// For each claim C in $ids (known at $known_at), walk C and every premise reachable over
// DERIVED_FROM, each once, along a shortest path (cycles terminate). Claims recorded after
// $known_at take no part; the walk continues only through claims still known at $known_at
// (txFrom <= known_at < txTo), so a retracted premise is reported but not walked past. It follows at most
// $fan_out premises of any claim (lowest ids first); deeper than $max_depth (<= 32) it stops.
// Edges not followed are counted as skipped, never cut silently.
// A premise P (C itself at depth 0) is out of date in scope when, at $valid_at as known at $known_at:
//   superseded — claims_superseded.cypher says so (the caller asks it about every walked claim:
//                supersession is decided there alone);
//   retracted  — P's txTo <= $known_at (corrected, when a claim known by then CORRECTS it: correctedBy);
//   expired    — P's validTo <= $valid_at and no known claim of the same subject, predicate and
//                object is valid at $valid_at.
// Contested: known claims valid at $valid_at that CONTRADICT P (either direction).
// Parameters: $workspace, $ids (list of claim ids), $valid_at, $known_at (datetimes),
//             $max_depth (0..32), $fan_out (integer >= 1)
// Returns: one row per claim known at $known_at: claimId, walked (claims on the walk),
//          skipped (edges not followed), truncated (boolean),
//          premises (list of {id, depth, path, retracted, expired, contestedBy, correctedBy}, one per walked
//          claim, C itself included), timeUnknown (C's valid time is words donto could not resolve)
// The predicate registry of the workspace, read once: name, aliases, cardinality.
CALL () {
  OPTIONAL MATCH (decl:Predicate {workspace: $workspace})
  RETURN collect(decl {.name, .aliases, .cardinality}) AS registry
}
UNWIND $ids AS claimId
MATCH (c:Claim {id: claimId})
WHERE c.workspace = $workspace AND c.txFrom <= $known_at
MATCH walk = ANY SHORTEST (c)(
    (a:Claim)-[:DERIVED_FROM]->(b:Claim)
    WHERE (a.txTo IS NULL OR a.txTo > $known_at) AND b.txFrom <= $known_at
      AND COUNT { (a)-[:DERIVED_FROM]->(sibling:Claim) WHERE sibling.id < b.id } < $fan_out
  ){0,32}(p:Claim)
WITH registry, c, p, length(walk) AS depth, [n IN nodes(walk) | n.id] AS path
WHERE depth <= $max_depth
WITH registry, c, p, depth, path,
     p.txTo IS NOT NULL AND p.txTo <= $known_at AS retracted,
     p.validTo IS NOT NULL AND p.validTo <= $valid_at AS ended,
     COUNT { (p)-[:DERIVED_FROM]->(:Claim) } AS premiseCount
// The predicate family of P: its registry entry (by name, else by alias), else P's predicate alone.
WITH c, p, depth, path, retracted, ended, premiseCount,
     head([d IN registry WHERE d.name = p.predicate] + [d IN registry WHERE p.predicate IN d.aliases]) AS decl
WITH c, p, depth, path, retracted, ended, premiseCount,
     CASE WHEN decl IS NULL THEN [p.predicate] ELSE [decl.name] + coalesce(decl.aliases, []) END AS family,
     coalesce(decl.cardinality, 'many') AS cardinality
CALL (p, family, ended) {
  WITH p, family, ended WHERE ended
  OPTIONAL MATCH (q:Claim {workspace: $workspace, subject: p.subject})
  USING INDEX q:Claim(workspace, subject, predicate)
  WHERE q.predicate IN family AND q.object = p.object AND q.objectKind = p.objectKind
    AND q.txFrom <= $known_at AND (q.txTo IS NULL OR q.txTo > $known_at)
    AND (q.validFrom IS NULL OR q.validFrom <= $valid_at) AND (q.validTo IS NULL OR q.validTo > $valid_at)
  WITH ended, count(q) AS continuations
  RETURN continuations = 0 AS expired
  UNION
  WITH ended WHERE NOT ended
  RETURN false AS expired
}
CALL (p) {
  OPTIONAL MATCH (q:Claim)-[:CONTRADICTS]-(p)
  WHERE q.txFrom <= $known_at AND (q.txTo IS NULL OR q.txTo > $known_at)
    AND (q.validFrom IS NULL OR q.validFrom <= $valid_at) AND (q.validTo IS NULL OR q.validTo > $valid_at)
  RETURN collect(DISTINCT q.id) AS contestedBy
}
WITH c, p, depth, path, retracted, expired, contestedBy,
     CASE
       WHEN retracted THEN 0
       WHEN depth >= $max_depth THEN premiseCount
       WHEN premiseCount > $fan_out THEN premiseCount - $fan_out
       ELSE 0
     END AS skippedHere
WITH c,
     count(p) AS walked,
     sum(skippedHere) AS skipped,
     collect({id: p.id, depth: depth, path: path, retracted: retracted, expired: expired,
              contestedBy: contestedBy,
              correctedBy: [(q:Claim)-[:CORRECTS]->(p) WHERE q.txFrom <= $known_at | q.id]}) AS premises
RETURN c.id AS claimId, walked, skipped, skipped > 0 AS truncated, premises, c.validWhen IS NOT NULL AS timeUnknown
