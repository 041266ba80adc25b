// Registers a document revision with its sentence passages, in one transaction. A revision under an
// external id that had one before REVISES it, as one of two kinds ($revision_kind, app/documents/versions.py):
// - a correction replaces it as of $recorded_at: the earlier revision and its passages get txTo, so
//   reads as known from now on see the new passages only, and reads as known before still see the old
//   ones (a previous revision that was retracted keeps its retraction's txTo);
// - a version follows it in the world: the earlier revision stays known, and it and its passages are
//   valid until $valid_from (validTo), as known from $recorded_at on (validToRecordedAt): a read as known
//   before still sees it open.
// The revision and its passages are valid from $valid_from (null: from no particular time). Passages wait
// for the embedder (:PendingEmbedding) and follow one another by NEXT, as a session's turns do; each
// carries the document's occurredAt.
// Parameters: $workspace, $id, $external_id, $revision (integer), $previous_id (or null),
//             $revision_kind ('version' | 'correction'), $valid_from (datetime or null),
//             $text, $sha256, $title, $source, $metadata (a JSON object as compact JSON text, or null),
//             $occurred_at (datetime or null), $recorded_at (datetime),
//             $passages: list of {id, seq, blockStart (where its line starts), speaker (a transcript
//                                 line's, else null), text, start, end, dateFrom, dateTo, dateGranularity, dateTag,
//                                 dateResolved, datePhrase, dateRecurring (a recurring time the passage names, else
//                                 null; no date)}, in order
// Returns: id, revision, sha256, occurredAt, revisionKind, validFrom, passages (count)
CREATE (d:Document {
  id: $id, workspace: $workspace, externalId: $external_id, revision: $revision,
  text: $text, sha256: $sha256, title: $title, source: $source, metadata: $metadata, occurredAt: $occurred_at,
  revisionKind: $revision_kind, validFrom: $valid_from, recordedAt: $recorded_at, txFrom: $recorded_at
})
WITH d
CALL (d) {
  MATCH (previous:Document {id: $previous_id})
  CREATE (d)-[:REVISES]->(previous)
  WITH previous, $revision_kind = 'version' AS follows
  SET previous.txTo = CASE WHEN follows THEN previous.txTo ELSE coalesce(previous.txTo, $recorded_at) END,
      previous.validTo = CASE WHEN follows THEN $valid_from ELSE previous.validTo END,
      previous.validToRecordedAt = CASE WHEN follows THEN $recorded_at ELSE previous.validToRecordedAt END
  WITH previous, follows
  MATCH (previous)-[:HAS_PASSAGE]->(old:Passage)
  WHERE old.txTo IS NULL
  SET old.txTo = CASE WHEN follows THEN old.txTo ELSE $recorded_at END,
      old.validTo = CASE WHEN follows THEN $valid_from ELSE old.validTo END,
      old.validToRecordedAt = CASE WHEN follows THEN $recorded_at ELSE old.validToRecordedAt END
}
CALL (d) {
  UNWIND $passages AS ps
  CREATE (d)-[:HAS_PASSAGE]->(p:Passage:PendingEmbedding {
    id: ps.id, workspace: $workspace, documentId: d.id, seq: ps.seq, blockStart: ps.blockStart, speaker: ps.speaker, text: ps.text, start: ps.start, end: ps.end,
    dateFrom: ps.dateFrom, dateTo: ps.dateTo, dateGranularity: ps.dateGranularity,
    dateTag: ps.dateTag, dateResolved: ps.dateResolved, datePhrase: ps.datePhrase, dateRecurring: ps.dateRecurring,
    occurredAt: d.occurredAt, validFrom: d.validFrom, txFrom: $recorded_at
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
RETURN d.id AS id, d.revision AS revision, d.sha256 AS sha256, d.occurredAt AS occurredAt,
       d.revisionKind AS revisionKind, d.validFrom AS validFrom, passages
