// What recall hands back for claims: the triple, its modality, when it was true, how established it
// is, and the words its evidence cites.
// Parameters: $workspace, $ids (list of claim ids)
// Returns: one row, rows: a list of {id, subject, predicate, object, context, hypothesis (boolean),
//          validFrom, validTo (ISO-8601 text), validWhen (words of a time donto could not resolve), sources
//          (independent sources its evidence cites), quotes (list of span texts), turnIds (turns its
//          evidence cites)}
UNWIND $ids AS claimId
MATCH (c:Claim {id: claimId})
WHERE c.workspace = $workspace
RETURN collect({id: c.id,
                subject: c.subject,
                predicate: c.predicate,
                object: c.object,
                context: c.context,
                hypothesis: c.hypothesis IS NOT NULL,
                validFrom: toString(c.validFrom),
                validTo: toString(c.validTo),
                validWhen: c.validWhen,
                sources: size(COLLECT { MATCH (c)-[:EVIDENCED_BY]->(:Span)-[:IN]->(d)
                                        RETURN DISTINCT coalesce(d.sessionId, d.externalId, d.sha256, d.id) AS source }),
                quotes: [(c)-[:EVIDENCED_BY]->(s:Span) | s.text],
                turnIds: [(c)-[:EVIDENCED_BY]->(:Span)-[:IN]->(t:Turn) | t.id]}) AS rows
