// Benchmark only (bench/crowded.py, never donto itself): a batch of other tenants' claims, written
// by one UNWIND rather than through donto's write path (bench scale and bench ingest time that), with
// what recall's indexes read: the workspace, the one-line text (full-text, which takes claims by
// :Searchable) and a vector (claim index).
// Parameters: $recorded_at (datetime), $rows: list of {id, workspace, subject, object, text, embedding}
// Returns: nothing
UNWIND $rows AS row
CREATE (:Claim:Searchable {
  id: row.id, workspace: row.workspace, contentKey: row.id, subject: row.subject, predicate: 'said',
  object: row.object, objectKind: 'literal', text: row.text, txFrom: $recorded_at, embedding: row.embedding
})
