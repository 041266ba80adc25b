// Where recall's candidate turns sit, for fusion to weigh them: their session, who said them and
// their neighbours in the session (what recall hands back for the chosen few is recall_turns).
// A neighbour is named only if the recall's time scope holds it, as the arms' hits are held: a turn
// appended after $known_at, or said after $valid_at, is not an as-of read's neighbour.
// Parameters: $workspace, $ids (list of turn ids), $valid_at, $known_at (datetimes)
// Returns: one row, rows: a list of {id, sessionExternalId, speaker, previousId, nextId}
UNWIND $ids AS turnId
MATCH (t:Turn {id: turnId})
WHERE t.workspace = $workspace
RETURN collect({id: t.id,
                sessionExternalId: t.sessionExternalId,
                speaker: t.speaker,
                previousId: head([(previous:Turn)-[:NEXT]->(t)
                                  WHERE previous.txFrom <= $known_at
                                    AND (previous.occurredAt IS NULL OR previous.occurredAt <= $valid_at) | previous.id]),
                nextId: head([(t)-[:NEXT]->(next:Turn)
                              WHERE next.txFrom <= $known_at
                                AND (next.occurredAt IS NULL OR next.occurredAt <= $valid_at) | next.id])}) AS rows
