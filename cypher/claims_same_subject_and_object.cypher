// The live claims that link a subject to an object, for the memorize step that treats a paraphrase
// ("melanie enjoys pottery" beside "melanie likes pottery") as corroboration, not a second claim.
// Parameters: $workspace, $pairs (list of {subject, object}), $limit (integer)
// Returns: id, subject, predicate, object, context, datatype — at most $limit rows
UNWIND $pairs AS pair
MATCH (c:Claim)
WHERE c.workspace = $workspace AND c.subject = pair.subject AND c.object = pair.object AND c.txTo IS NULL
RETURN c.id AS id, c.subject AS subject, c.predicate AS predicate, c.object AS object, c.context AS context,
       c.objectDatatype AS datatype
LIMIT $limit
