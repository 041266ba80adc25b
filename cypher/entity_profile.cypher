// An entity's dossier: every claim known at $known_at with the entity as subject (grouped by
// the caller per predicate), dated, whether it holds at $valid_at, and what contradicts it; and
// the claims that name the entity as their object.
// Parameters: $workspace, $key (entity key), $valid_at, $known_at (datetimes), $limit (integer)
// Returns: direction ('subject' | 'object'), id, subject, predicate, object, objectKind,
//          objectDatatype, validFrom, validTo, confidence, current (valid at $valid_at),
//          contradictedBy (ids of known claims contradicting it, either direction), quotes
MATCH (e:Entity {workspace: $workspace, key: $key})
CALL (e) {
  MATCH (c:Claim)-[:SUBJECT]->(e) RETURN 'subject' AS direction, c
  UNION
  MATCH (c:Claim)-[:OBJECT]->(e) RETURN 'object' AS direction, c
}
WITH direction, c
WHERE c.txFrom <= $known_at AND (c.txTo IS NULL OR c.txTo > $known_at)
RETURN direction, c.id AS id, c.subject AS subject, c.predicate AS predicate, c.object AS object,
       c.objectKind AS objectKind, c.objectDatatype AS objectDatatype,
       c.validFrom AS validFrom, c.validTo AS validTo, c.confidence AS confidence,
       (c.validFrom IS NULL OR c.validFrom <= $valid_at) AND (c.validTo IS NULL OR c.validTo > $valid_at) AS current,
       [(c)-[:CONTRADICTS]-(x:Claim) WHERE x.txFrom <= $known_at AND (x.txTo IS NULL OR x.txTo > $known_at) | x.id]
         AS contradictedBy,
       [(c)-[:EVIDENCED_BY]->(s:Span) | s.text] AS quotes
ORDER BY direction DESC, predicate, coalesce(validFrom, datetime('0001-01-01T00:00:00Z')), id
LIMIT $limit
