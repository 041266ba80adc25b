// What recall hands back for claims: the triple, when it was true, and the words its evidence cites.
// Parameters: $workspace, $ids (list of claim ids)
// Returns: one row, rows: a list of {id, subject, predicate, object, validFrom, validTo, quotes
//          (list of span texts), turnIds (turns its evidence cites)}
UNWIND $ids AS claimId
MATCH (c:Claim {id: claimId})
WHERE c.workspace = $workspace
RETURN collect({id: c.id,
                subject: c.subject,
                predicate: c.predicate,
                object: c.object,
                validFrom: c.validFrom,
                validTo: c.validTo,
                quotes: [(c)-[:EVIDENCED_BY]->(s:Span) | s.text],
                turnIds: [(c)-[:EVIDENCED_BY]->(:Span)-[:IN]->(t:Turn) | t.id]}) AS rows
