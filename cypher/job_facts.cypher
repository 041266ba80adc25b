// What an extraction job's model stated, fact by fact in order, and what became of each: its pass
// and lens, its quote, where it was anchored (a document or a turn, character offsets) or why not,
// and its outcome: created, existing, corroborated, corrected (corrects: the claim its claim is the
// new version of), repeated (a claim id each) or rejected (reason); correction: what became of a
// correction it states, or of a claim it restates from an earlier source.
// Parameters: $workspace, $id (the job), $after (a seq: the page starts after it; 0 for the first),
//             $limit
// Returns: one row per fact: seq, attempt, pass, lens, chunk, subject, predicate, object, quote, text,
//          anchorKind, anchorId, start, end, unanchoredReason, outcome, reason, claimId, repeats,
//          corrects, correction
MATCH (j:Job {id: $id})-[:STATED]->(f:JobFact)
WHERE j.workspace = $workspace AND f.seq > $after
RETURN f.seq AS seq, f.attempt AS attempt, f.pass AS pass, f.lens AS lens, f.chunk AS chunk,
       f.subject AS subject, f.predicate AS predicate, f.object AS object, f.quote AS quote, f.text AS text,
       f.anchorKind AS anchorKind, f.anchorId AS anchorId, f.start AS start, f.end AS end,
       f.unanchoredReason AS unanchoredReason, f.outcome AS outcome, f.reason AS reason,
       f.claimId AS claimId, f.repeats AS repeats, f.corrects AS corrects, f.correction AS correction
ORDER BY seq
LIMIT $limit
