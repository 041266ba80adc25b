// What recall hands back for claims: the triple, when it was true, and the words its evidence cites.
// Parameters: $workspace, $ids (list of claim ids)
// Returns: id, subject, predicate, object, validFrom, validTo, quotes (list of span texts),
//          turnIds (turns its evidence cites)
UNWIND $ids AS claimId
MATCH (c:Claim {id: claimId})
WHERE c.workspace = $workspace
RETURN c.id AS id, c.subject AS subject, c.predicate AS predicate, c.object AS object,
       c.validFrom AS validFrom, c.validTo AS validTo,
       [(c)-[:EVIDENCED_BY]->(s:Span) | s.text] AS quotes,
       [(c)-[:EVIDENCED_BY]->(:Span)-[:IN]->(t:Turn) | t.id] AS turnIds
