// Records every fact an extraction job's model stated, in order, with what became of it: one
// (:JobFact) each, (:Job)-[:STATED]->(:JobFact), and (:JobFact)-[:BECAME]->(:Claim) for one that is a
// claim. A job run again (a retry) replaces what an earlier attempt recorded.
// Parameters: $id (the job), $workspace, $facts (list of {seq, attempt, pass, lens, chunk, subject,
//             predicate, object, quote, text, anchorKind, anchorId, start, end, unanchoredReason,
//             outcome, reason, claimId, repeats, corrects (with outcome corrected: the claim its
//             claim is the new version of), correction (what became of the correction it states, or
//             of the claim it restates from an earlier source)})
// Returns: recorded (count)
MATCH (j:Job {id: $id}) WHERE j.workspace = $workspace
CALL (j) {
  MATCH (j)-[:STATED]->(old:JobFact)
  DETACH DELETE old
}
WITH j
UNWIND $facts AS fact
CREATE (j)-[:STATED]->(f:JobFact {
  id: $id + ':' + toString(fact.seq), jobId: $id, workspace: $workspace, seq: fact.seq, attempt: fact.attempt,
  pass: fact.pass, lens: fact.lens, chunk: fact.chunk, subject: fact.subject, predicate: fact.predicate,
  object: fact.object, quote: fact.quote, text: fact.text, anchorKind: fact.anchorKind,
  anchorId: fact.anchorId, start: fact.start, end: fact.end, unanchoredReason: fact.unanchoredReason,
  outcome: fact.outcome, reason: fact.reason, claimId: fact.claimId, repeats: fact.repeats,
  corrects: fact.corrects, correction: fact.correction
})
WITH f, fact
CALL (f, fact) {
  MATCH (c:Claim {id: fact.claimId}) WHERE c.workspace = $workspace
  CREATE (f)-[:BECAME]->(c)
}
RETURN count(f) AS recorded
