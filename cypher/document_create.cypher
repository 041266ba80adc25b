// Registers a document revision with its sentence passages, in one transaction. A revision under an
// external id that had one before REVISES it and replaces it as of $recorded_at: the earlier
// revision and its passages get txTo, so reads as known from now on see the new passages only, and
// reads as known before still see the old ones. Passages wait for the embedder (:PendingEmbedding)
// and follow one another by NEXT, as a session's turns do; each carries the document's occurredAt.
// A previous revision that was retracted keeps its retraction's txTo (it was no longer known from then).
// Parameters: $workspace, $id, $external_id, $revision (integer), $previous_id (or null),
//             $text, $sha256, $title, $source, $metadata (a JSON object as compact JSON text, or null),
//             $occurred_at (datetime or null), $recorded_at (datetime),
//             $passages: list of {id, seq, blockStart (where its line starts), speaker (a transcript
//                                 line's, else null), text, start, end, dateFrom, dateTo, dateGranularity, dateTag,
//                                 dateResolved, datePhrase, dateRecurring (a recurring time the passage names, else
//                                 null; no date)}, in order
// Returns: id, revision, sha256, occurredAt, passages (count)
CREATE (d:Document {
  id: $id, workspace: $workspace, externalId: $external_id, revision: $revision,
  text: $text, sha256: $sha256, title: $title, source: $source, metadata: $metadata, occurredAt: $occurred_at,
  recordedAt: $recorded_at, txFrom: $recorded_at
})
WITH d
CALL (d) {
  MATCH (previous:Document {id: $previous_id})
  CREATE (d)-[:REVISES]->(previous)
  SET previous.txTo = coalesce(previous.txTo, $recorded_at)
  WITH previous
  MATCH (previous)-[:HAS_PASSAGE]->(old:Passage)
  WHERE old.txTo IS NULL
  SET old.txTo = $recorded_at
}
CALL (d) {
  UNWIND $passages AS ps
  CREATE (d)-[:HAS_PASSAGE]->(p:Passage:PendingEmbedding {
    id: ps.id, workspace: $workspace, documentId: d.id, seq: ps.seq, blockStart: ps.blockStart, speaker: ps.speaker, text: ps.text, start: ps.start, end: ps.end,
    dateFrom: ps.dateFrom, dateTo: ps.dateTo, dateGranularity: ps.dateGranularity,
    dateTag: ps.dateTag, dateResolved: ps.dateResolved, datePhrase: ps.datePhrase, dateRecurring: ps.dateRecurring,
    occurredAt: d.occurredAt, txFrom: $recorded_at
  })
  WITH p ORDER BY p.seq
  WITH collect(p) AS written
  CALL (written) {
    UNWIND range(0, size(written) - 2) AS i
    WITH written[i] AS earlier, written[i + 1] AS later
    CREATE (earlier)-[:NEXT]->(later)
  }
  RETURN size(written) AS passages
}
RETURN d.id AS id, d.revision AS revision, d.sha256 AS sha256, d.occurredAt AS occurredAt, passages
