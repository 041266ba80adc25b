// Claims a new fact restates from an earlier source: live claims with the same subject, predicate,
// object, context and hypothesis flag, that start after the fact was said ("Carl works at Acme"
// from a team page of 5 March, read first; a newsletter of 1 March, read after it, says it too).
// Memorize moves such a claim's start back: it writes the claim's new version (a correction),
// valid from when the fact was said, citing the claim's evidence and the new words. The next such
// claim after the fact is the one: of a single-valued predicate only if no other value starts
// between the two (then the earlier source's value is a stint of its own, and is written as one).
// Parameters: $workspace, $facts: list of {index, subject, predicate, object, objectKind, context
//             (null: asserted), hypothesis (boolean), saidAt (datetime), single (boolean: the
//             predicate is single-valued)}
// Returns: index (the fact's), id, validFrom, validTo, confidence, derivedFrom (ids),
//          evidence (list of {documentId, start, end}: the spans it cites)
UNWIND $facts AS fact
MATCH (c:Claim {workspace: $workspace, subject: fact.subject, predicate: fact.predicate})
WHERE c.object = fact.object AND c.objectKind = fact.objectKind AND c.txTo IS NULL
  AND coalesce(c.context, '') = coalesce(fact.context, '') AND (c.hypothesis IS NOT NULL) = fact.hypothesis
  AND c.validWhen IS NULL AND c.validFrom > fact.saidAt
WITH fact, c ORDER BY c.validFrom, c.id
WITH fact, head(collect(c)) AS c
WHERE NOT (fact.single AND EXISTS {
    MATCH (other:Claim {workspace: $workspace, subject: fact.subject, predicate: fact.predicate})
    WHERE other.txTo IS NULL AND (other.object <> c.object OR other.objectKind <> c.objectKind)
      AND coalesce(other.context, '') = coalesce(c.context, '')
      AND other.validFrom > fact.saidAt AND other.validFrom < c.validFrom
  })
RETURN fact.index AS index, c.id AS id, c.validFrom AS validFrom, c.validTo AS validTo,
       c.confidence AS confidence,
       COLLECT { MATCH (c)-[:DERIVED_FROM]->(p:Claim) RETURN p.id ORDER BY p.id } AS derivedFrom,
       COLLECT {
         MATCH (c)-[:EVIDENCED_BY]->(s:Span)-[:IN]->(d)
         RETURN {documentId: d.id, start: s.start, end: s.end} AS span ORDER BY d.id, s.start, s.end
       } AS evidence
