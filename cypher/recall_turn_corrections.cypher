// Which of the turns recall hands back a later turn corrects ((later:Turn)-[:CORRECTS]->(t),
// app/episodes/corrections.py), as the recall's time scope knows it: a correction recorded by
// $known_at, by a turn live at $known_at and said by $valid_at (a turn with no time of its own
// counts as said), the latest of them where several are.
// Parameters: $workspace, $ids (list of turn ids), $valid_at, $known_at (datetimes)
// Returns: one row, rows: a list of {id (the corrected turn's), correctorId, externalId (the
//          correcting turn's), occurredAt (ISO-8601 text or null), text}, one per corrected turn
UNWIND $ids AS turnId
MATCH (t:Turn {id: turnId})
WHERE t.workspace = $workspace
CALL (t) {
  MATCH (later:Turn)-[c:CORRECTS]->(t)
  WHERE c.txFrom <= $known_at AND later.txFrom <= $known_at AND (later.txTo IS NULL OR later.txTo > $known_at)
    AND (later.occurredAt IS NULL OR later.occurredAt <= $valid_at)
  RETURN later ORDER BY later.seq DESC LIMIT 1
}
RETURN collect({id: t.id, correctorId: later.id, externalId: later.externalId,
                occurredAt: toString(later.occurredAt), text: later.text}) AS rows
