// One claim with both time intervals, its relationships (both directions) and evidence spans.
// Parameters: $workspace, $id
// Returns: claim (map of the claim's fields, not its embedding; sources: the independent sources
//          its evidence cites, documents or sessions), derivedFrom, supports,
//          contradicts, supersedes, derivedBy, supportedBy, contradictedBy, supersededBy (lists of claim ids;
//          supersededBy names declared SUPERSEDES links only: the API answers claims_superseded's),
//          corrects, correctedBy (the claim this one is a new version of; the one that corrected it),
//          evidence (list of {spanId, documentId, start, end, text})
MATCH (c:Claim {id: $id})
WHERE c.workspace = $workspace
RETURN c {.id, .subject, .predicate, .object, .objectKind, .objectDatatype, .context, .confidence,
          .validFrom, .validTo, .txFrom, .txTo, .retractionReason, .hypothesis, .validWhen,
          sources: size(COLLECT { MATCH (c)-[:EVIDENCED_BY]->(:Span)-[:IN]->(d)
                                  RETURN DISTINCT coalesce(d.sessionId, d.externalId, d.sha256, d.id) AS source })} AS claim,
       [(c)-[:DERIVED_FROM]->(x) | x.id] AS derivedFrom,
       [(c)-[:SUPPORTS]->(x) | x.id] AS supports,
       [(c)-[:CONTRADICTS]->(x) | x.id] AS contradicts,
       [(c)-[:SUPERSEDES]->(x) | x.id] AS supersedes,
       [(x)-[:DERIVED_FROM]->(c) | x.id] AS derivedBy,
       [(x)-[:SUPPORTS]->(c) | x.id] AS supportedBy,
       [(x)-[:CONTRADICTS]->(c) | x.id] AS contradictedBy,
       [(x)-[:SUPERSEDES]->(c) | x.id] AS supersededBy,
       [(c)-[:CORRECTS]->(x) | x.id] AS corrects,
       [(x)-[:CORRECTS]->(c) | x.id] AS correctedBy,
       [(c)-[:EVIDENCED_BY]->(s:Span)-[:IN]->(d:Document|Turn) |
          {spanId: s.id, documentId: d.id, start: s.start, end: s.end, text: s.text}] AS evidence
