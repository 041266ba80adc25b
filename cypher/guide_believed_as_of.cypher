// Browser guide: what did we believe was true on $valid_at, as donto knew it on $known_at? The
// as-of read on both time axes (claims_as_of.cypher's rule), about one entity or the whole workspace.
// Parameters: $workspace, $entity (entity key, or null: every claim), $valid_at, $known_at
//             (ISO-8601 strings, or null: now; a date means midnight UTC)
// Returns: subject, predicate, object, validFrom, validTo, recordedAt (txFrom) — at most 100 rows,
//          ordered by subject, predicate, validFrom
WITH coalesce(datetime($valid_at), datetime()) AS validAt, coalesce(datetime($known_at), datetime()) AS knownAt
MATCH (c:Claim {workspace: $workspace})
WHERE ($entity IS NULL OR c.subject = $entity OR (c.objectKind = 'entity' AND c.object = $entity))
  AND c.txFrom <= knownAt AND (c.txTo IS NULL OR c.txTo > knownAt)
  AND (c.validFrom IS NULL OR c.validFrom <= validAt) AND (c.validTo IS NULL OR c.validTo > validAt)
RETURN c.subject AS subject, c.predicate AS predicate, c.object AS object,
       c.validFrom AS validFrom, c.validTo AS validTo, c.txFrom AS recordedAt
ORDER BY subject, predicate, validFrom
LIMIT 100
