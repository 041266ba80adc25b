// The claims true at $valid_at as donto knew them at $known_at (an as-of read on both time axes),
// optionally narrowed by subject, predicate and object; keyset-paginated by claim id. Subject and
// object are lists of keys: one key, or an entity's identity set (entity_identity.cypher).
// A claim is known at T when txFrom <= T < txTo (txTo absent = still known); it is valid at T
// when validFrom <= T < validTo (an absent bound is open). With $include_retracted the
// transaction-time upper bound is dropped: claims recorded by $known_at and retracted since
// (or before) are listed too.
// Parameters: $workspace, $subjects (list of keys), $predicate, $objects (list of keys) (each null = any),
//             $valid_at, $known_at (datetimes), $include_retracted (boolean),
//             $after (claim id of the previous page's last row, or null), $limit (integer)
// Returns: claim (map of the claim's fields, not its embedding; sources: the independent sources
//          its evidence cites, documents or sessions), one row per claim, ordered by id
CALL () {
  WITH 1 AS _ WHERE $subjects IS NOT NULL
  UNWIND $subjects AS subject
  MATCH (c:Claim {workspace: $workspace, subject: subject})
  WHERE c.predicate IS NOT NULL  // lets the planner seek the (workspace, subject, predicate) index by prefix
  RETURN c
  UNION
  WITH 1 AS _ WHERE $subjects IS NULL AND $objects IS NOT NULL
  UNWIND $objects AS object
  MATCH (c:Claim {workspace: $workspace, object: object})
  RETURN c
  UNION
  WITH 1 AS _ WHERE $subjects IS NULL AND $objects IS NULL AND $predicate IS NOT NULL
  MATCH (c:Claim {workspace: $workspace, predicate: $predicate})
  RETURN c
  UNION
  WITH 1 AS _ WHERE $subjects IS NULL AND $objects IS NULL AND $predicate IS NULL
  MATCH (c:Claim {workspace: $workspace})
  WHERE c.id IS NOT NULL  // seeks the (workspace, id) index
  RETURN c
}
WITH c
WHERE ($subjects IS NULL OR c.subject IN $subjects)
  AND ($predicate IS NULL OR c.predicate = $predicate)
  AND ($objects IS NULL OR c.object IN $objects)
  AND ($after IS NULL OR c.id > $after)
  AND c.txFrom <= $known_at
  AND ($include_retracted OR c.txTo IS NULL OR c.txTo > $known_at)
  AND (c.validFrom IS NULL OR c.validFrom <= $valid_at)
  AND (c.validTo IS NULL OR c.validTo > $valid_at)
RETURN c {.id, .subject, .predicate, .object, .objectKind, .objectDatatype, .context, .confidence,
          .validFrom, .validTo, .txFrom, .txTo, .retractionReason, .hypothesis, .validWhen,
          sources: size(COLLECT { MATCH (c)-[:EVIDENCED_BY]->(:Span)-[:IN]->(d)
                                  RETURN DISTINCT coalesce(d.sessionId, d.externalId, d.sha256, d.id) AS source })} AS claim
ORDER BY c.id
LIMIT $limit
