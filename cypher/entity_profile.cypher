// An entity's dossier: every claim known at $known_at with the entity as subject (grouped by
// the caller per predicate), dated, whether its valid time holds at $valid_at (an unknown one,
// validWhen, does not), and what contradicts it; and the claims that name the entity as their
// object. What superseded each the caller asks claims_superseded.cypher, where alone it is decided.
// $keys is the entity's key, or its identity set (entity_identity.cypher): then the claims of
// every key in it.
// Parameters: $workspace, $keys (list of entity keys), $valid_at, $known_at (datetimes), $limit (integer)
// Returns: direction ('subject' | 'object'), id, subject, predicate, object, objectKind,
//          objectDatatype, validFrom, validTo, validWhen (words of a start time donto could not
//          resolve), confidence, context, hypothesis (boolean), sources (independent sources its
//          evidence cites), valid (its known valid time holds at $valid_at), contradictedBy (ids of
//          known claims contradicting it, either direction), quotes
UNWIND $keys AS key
MATCH (e:Entity {workspace: $workspace, key: key})
CALL (e) {
  MATCH (c:Claim)-[:SUBJECT]->(e) RETURN 'subject' AS direction, c
  UNION
  MATCH (c:Claim)-[:OBJECT]->(e) RETURN 'object' AS direction, c
}
WITH direction, c
WHERE c.txFrom <= $known_at AND (c.txTo IS NULL OR c.txTo > $known_at)
WITH direction, c,
     (c.validFrom IS NULL OR c.validFrom <= $valid_at) AND (c.validTo IS NULL OR c.validTo > $valid_at)
       AND c.validWhen IS NULL AS valid
RETURN direction, c.id AS id, c.subject AS subject, c.predicate AS predicate, c.object AS object,
       c.objectKind AS objectKind, c.objectDatatype AS objectDatatype,
       c.validFrom AS validFrom, c.validTo AS validTo, c.validWhen AS validWhen, c.confidence AS confidence,
       c.context AS context, c.hypothesis IS NOT NULL AS hypothesis,
       size(COLLECT { MATCH (c)-[:EVIDENCED_BY]->(:Span)-[:IN]->(d)
                      RETURN DISTINCT coalesce(d.sessionId, d.externalId, d.sha256, d.id) AS source }) AS sources,
       valid,
       [(c)-[:CONTRADICTS]-(x:Claim) WHERE x.txFrom <= $known_at AND (x.txTo IS NULL OR x.txTo > $known_at) | x.id]
         AS contradictedBy,
       [(c)-[:EVIDENCED_BY]->(s:Span) | s.text] AS quotes
ORDER BY direction DESC, predicate, coalesce(validFrom, datetime('0001-01-01T00:00:00Z')), id
LIMIT $limit
