// Claims a new fact restates without a time of its own: live claims with the same subject,
// predicate, object and context that hold when the fact was said ("Melanie likes pottery" said in
// June, beside the same claim from May, still open). Memorize counts such a fact as found again
// rather than writing a second claim dated from June. (Not for single-valued predicates: a value
// stated again after another replaced it is news, and is written.)
// Parameters: $workspace, $facts: list of {index, subject, predicate, object, objectKind, context
//             (null: asserted), saidAt (datetime)}
// Returns: index (the fact's), id (the earliest such claim)
UNWIND $facts AS fact
MATCH (c:Claim {workspace: $workspace, subject: fact.subject, predicate: fact.predicate})
WHERE c.object = fact.object AND c.objectKind = fact.objectKind AND c.txTo IS NULL
  AND coalesce(c.context, '') = coalesce(fact.context, '')
  AND (c.validFrom IS NULL OR c.validFrom <= fact.saidAt) AND (c.validTo IS NULL OR c.validTo > fact.saidAt)
WITH fact, c ORDER BY c.validFrom, c.id
RETURN fact.index AS index, head(collect(c.id)) AS id
