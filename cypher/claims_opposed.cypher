// Claims a new fact contradicts: held claims with the same subject, predicate and object, of the
// opposite polarity (an asserted claim for a negated fact, a negated claim for an asserted one).
// Memorize links the new claim to them (CONTRADICTS), so a contradiction read from text is held
// side by side and shows as contested, never resolved.
// Parameters: $workspace, $facts: list of {index, subject, predicate, object, objectKind,
//             negated (boolean: the new fact's polarity)}
// Returns: index (the fact's), ids (claims it contradicts)
UNWIND $facts AS fact
MATCH (c:Claim {workspace: $workspace, subject: fact.subject, predicate: fact.predicate})
WHERE c.object = fact.object AND c.objectKind = fact.objectKind AND c.txTo IS NULL
  AND CASE WHEN fact.negated THEN c.context IS NULL ELSE c.context = 'negated' END
RETURN fact.index AS index, collect(c.id) AS ids
