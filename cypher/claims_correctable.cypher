// What a fact that says it corrects an earlier statement ("sorry, it was July, not August") could
// correct: the live claims of its subject and predicate, with its context and hypothesis flag, other
// than the one it states (memorize picks the one whose object or time matches what the fact says it
// corrects, and corrects it only when exactly one does). `held`: a live claim that states the fact
// already (a job run again): then nothing is corrected.
// Parameters: $workspace, $limit (candidates per fact at most),
//             $facts: list of {index, subject, predicate, context (null: asserted), hypothesis
//             (boolean), contentKey (the claim the fact would be)}
// Returns: index (the fact's), held (a live claim's id, or null), candidates (list of {id, object,
//          objectKind, validFrom, validTo, validWhen}, in id order)
UNWIND $facts AS fact
WITH fact, COLLECT {
  MATCH (h:Claim {workspace: $workspace, contentKey: fact.contentKey})
  WHERE h.txTo IS NULL
  RETURN h.id
} AS held
WITH fact, held, COLLECT {
  MATCH (c:Claim {workspace: $workspace, subject: fact.subject, predicate: fact.predicate})
  WHERE c.txTo IS NULL AND c.contentKey <> fact.contentKey
    AND coalesce(c.context, '') = coalesce(fact.context, '') AND (c.hypothesis IS NOT NULL) = fact.hypothesis
  WITH c ORDER BY c.id LIMIT $limit
  RETURN c {.id, .object, .objectKind, .validFrom, .validTo, .validWhen}
} AS candidates
RETURN fact.index AS index, head(held) AS held, candidates
