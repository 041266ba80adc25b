// An entity's dossier: every claim known at $known_at with the entity as subject (grouped by
// the caller per predicate), dated, whether it holds at $valid_at, what superseded it (the premise
// walk's rule: a later value of a cardinality-'one' predicate or alias, or a SUPERSEDES link) and
// what contradicts it; and the claims that name the entity as their object. The supersession rule
// is the one in claim_status.cypher; keep the two in step. $keys is the entity's key, or its
// identity set (entity_identity.cypher): then the claims of every key in it.
// Parameters: $workspace, $keys (list of entity keys), $valid_at, $known_at (datetimes), $limit (integer)
// Returns: direction ('subject' | 'object'), id, subject, predicate, object, objectKind,
//          objectDatatype, validFrom, validTo, confidence, current (valid at $valid_at and not
//          superseded), supersededBy (ids of known claims valid at $valid_at), contradictedBy
//          (ids of known claims contradicting it, either direction), quotes
CALL () {
  OPTIONAL MATCH (decl:Predicate {workspace: $workspace})
  RETURN collect(decl {.name, .aliases, .cardinality}) AS registry
}
UNWIND $keys AS key
MATCH (e:Entity {workspace: $workspace, key: key})
CALL (e) {
  MATCH (c:Claim)-[:SUBJECT]->(e) RETURN 'subject' AS direction, c
  UNION
  MATCH (c:Claim)-[:OBJECT]->(e) RETURN 'object' AS direction, c
}
WITH registry, direction, c
WHERE c.txFrom <= $known_at AND (c.txTo IS NULL OR c.txTo > $known_at)
WITH direction, c,
     head([d IN registry WHERE d.name = c.predicate] + [d IN registry WHERE c.predicate IN d.aliases]) AS decl
WITH direction, c,
     CASE WHEN decl IS NULL THEN [c.predicate] ELSE [decl.name] + coalesce(decl.aliases, []) END AS family,
     coalesce(decl.cardinality, 'many') AS cardinality,
     (c.validFrom IS NULL OR c.validFrom <= $valid_at) AND (c.validTo IS NULL OR c.validTo > $valid_at) AS valid
CALL (c, family, cardinality) {  // only a single-valued predicate has later values (as in claim_status)
  WITH c, family, cardinality WHERE cardinality = 'one'
  OPTIONAL MATCH (q:Claim {workspace: $workspace, subject: c.subject})
  WHERE q.predicate IN family
    AND (q.object <> c.object OR q.objectKind <> c.objectKind)
    AND q.validFrom IS NOT NULL AND (c.validFrom IS NULL OR q.validFrom > c.validFrom)
    AND q.txFrom <= $known_at AND (q.txTo IS NULL OR q.txTo > $known_at)
    AND q.validFrom <= $valid_at AND (q.validTo IS NULL OR q.validTo > $valid_at)
  RETURN collect(q.id) AS newerValues
  UNION
  WITH cardinality WHERE cardinality <> 'one'
  RETURN [] AS newerValues
}
WITH direction, c, valid, newerValues +
     [(q:Claim)-[:SUPERSEDES]->(c) WHERE q.txFrom <= $known_at AND (q.txTo IS NULL OR q.txTo > $known_at)
        AND (q.validFrom IS NULL OR q.validFrom <= $valid_at) AND (q.validTo IS NULL OR q.validTo > $valid_at)
      | q.id] AS supersededBy
RETURN direction, c.id AS id, c.subject AS subject, c.predicate AS predicate, c.object AS object,
       c.objectKind AS objectKind, c.objectDatatype AS objectDatatype,
       c.validFrom AS validFrom, c.validTo AS validTo, c.confidence AS confidence,
       valid AND size(supersededBy) = 0 AS current, supersededBy,
       [(c)-[:CONTRADICTS]-(x:Claim) WHERE x.txFrom <= $known_at AND (x.txTo IS NULL OR x.txTo > $known_at) | x.id]
         AS contradictedBy,
       [(c)-[:EVIDENCED_BY]->(s:Span) | s.text] AS quotes
ORDER BY direction DESC, predicate, coalesce(validFrom, datetime('0001-01-01T00:00:00Z')), id
LIMIT $limit
