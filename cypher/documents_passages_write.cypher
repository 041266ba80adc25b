// Gives documents registered before schema version 10 their passages and transaction time, as
// document_create would have: passages after one another by NEXT, waiting for the embedder, known
// from the revision's recordedAt and, for a replaced revision, until it was replaced.
// Parameters: $documents: list of {id, replacedAt (datetime or null),
//             passages: list of {id, seq, blockStart (where its line starts), speaker (a transcript
//                                 line's, else null), text, start, end, dateFrom, dateTo, dateGranularity, dateTag,
//                                dateResolved, datePhrase, dateRecurring}}
// Returns: documents (count)
UNWIND $documents AS row
MATCH (d:Document {id: row.id})
WHERE d.txFrom IS NULL
SET d.txFrom = coalesce(d.recordedAt, datetime()), d.txTo = row.replacedAt
WITH d, row
CALL (d, row) {
  UNWIND row.passages AS ps
  CREATE (d)-[:HAS_PASSAGE]->(p:Passage:PendingEmbedding {
    id: ps.id, workspace: d.workspace, documentId: d.id, seq: ps.seq, blockStart: ps.blockStart, speaker: ps.speaker, text: ps.text, start: ps.start, end: ps.end,
    dateFrom: ps.dateFrom, dateTo: ps.dateTo, dateGranularity: ps.dateGranularity,
    dateTag: ps.dateTag, dateResolved: ps.dateResolved, datePhrase: ps.datePhrase, dateRecurring: ps.dateRecurring,
    occurredAt: d.occurredAt, txFrom: d.recordedAt, txTo: row.replacedAt
  })
  WITH p ORDER BY p.seq
  WITH collect(p) AS written
  CALL (written) {
    UNWIND range(0, size(written) - 2) AS i
    WITH written[i] AS earlier, written[i + 1] AS later
    CREATE (earlier)-[:NEXT]->(later)
  }
}
RETURN count(d) AS documents
