// Claims a new fact restates without a time of its own: live claims with the same subject,
// predicate, object, context and hypothesis flag that hold when the fact was said ("Melanie likes
// pottery" said in June, beside the same claim from May, still open; "Carl is at Acme these days"
// in a newsletter, beside "Carl works at Acme" from a team page a week before). Memorize counts
// such a fact as found again, citing its words for the claim (claims_corroborate), rather than
// writing a second claim dated from when it was said. Of a single-valued predicate only a claim no
// other value replaced before then: a value stated again after another replaced it is news, and
// is written.
// Parameters: $workspace, $facts: list of {index, subject, predicate, object, objectKind, context
//             (null: asserted), hypothesis (boolean), saidAt (datetime), single (boolean: the
//             predicate is single-valued)}
// Returns: index (the fact's), id (the earliest such claim)
UNWIND $facts AS fact
MATCH (c:Claim {workspace: $workspace, subject: fact.subject, predicate: fact.predicate})
WHERE c.object = fact.object AND c.objectKind = fact.objectKind AND c.txTo IS NULL
  AND coalesce(c.context, '') = coalesce(fact.context, '') AND (c.hypothesis IS NOT NULL) = fact.hypothesis
  AND c.validWhen IS NULL
  AND (c.validFrom IS NULL OR c.validFrom <= fact.saidAt) AND (c.validTo IS NULL OR c.validTo > fact.saidAt)
  AND NOT (fact.single AND EXISTS {
    MATCH (other:Claim {workspace: $workspace, subject: fact.subject, predicate: fact.predicate})
    WHERE other.txTo IS NULL AND (other.object <> c.object OR other.objectKind <> c.objectKind)
      AND coalesce(other.context, '') = coalesce(c.context, '')
      AND other.validFrom IS NOT NULL AND (c.validFrom IS NULL OR other.validFrom > c.validFrom)
      AND other.validFrom <= fact.saidAt
  })
WITH fact, c ORDER BY c.validFrom, c.id
RETURN fact.index AS index, head(collect(c.id)) AS id
