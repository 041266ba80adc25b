// Recall's last read, after fusion has weighed its turns: the turns just before and after the
// strongest ones, and what recall hands back for the best turns and those neighbours (text, speaker,
// when it was said, its session and its dated passages). One statement, so that the neighbours
// cost no round trip of their own: the chosen are at most the best before the neighbours joined and
// the neighbours themselves. A neighbour is named only if the recall's time scope holds it, as the
// arms' hits are held: a turn appended after $known_at, or said after $valid_at, is not an as-of
// read's neighbour, nor one retracted by $known_at, nor an empty turn (it says nothing).
// Parameters: $workspace, $strongest (turn ids whose neighbours are asked), $ids (turn ids whose
//             details are asked), $valid_at, $known_at (datetimes)
// Returns: one row: neighbours, a list of {id, previousId, nextId} (one per strongest turn), and
//          turns, a list of {id, externalId, sessionExternalId, seq (its place in the session),
//          speaker, text, occurredAt (ISO-8601 text), metadata (JSON text or null), dates (list of {phrase, tag} for passages that
//          resolved a time expression, then {phrase, tag: 'recurring'} for those that name a recurring
//          time, which is no date)}, for $ids and the neighbours
CALL () {
  UNWIND $strongest AS turnId
  MATCH (t:Turn {id: turnId})
  WHERE t.workspace = $workspace
  RETURN collect({id: t.id,
                  previousId: head([(previous:Turn)-[:NEXT]->(t)
                                    WHERE previous.txFrom <= $known_at
                                      AND (previous.txTo IS NULL OR previous.txTo > $known_at)
                                      AND trim(previous.text) <> ''
                                      AND (previous.occurredAt IS NULL OR previous.occurredAt <= $valid_at) | previous.id]),
                  nextId: head([(t)-[:NEXT]->(next:Turn)
                                WHERE next.txFrom <= $known_at
                                  AND (next.txTo IS NULL OR next.txTo > $known_at)
                                  AND trim(next.text) <> ''
                                  AND (next.occurredAt IS NULL OR next.occurredAt <= $valid_at) | next.id])}) AS neighbours
}
CALL (neighbours) {
  UNWIND $ids + [n IN neighbours | n.previousId] + [n IN neighbours | n.nextId] AS turnId
  WITH DISTINCT turnId
  MATCH (t:Turn {id: turnId})
  WHERE t.workspace = $workspace
  RETURN collect({id: t.id,
                  externalId: t.externalId,
                  sessionExternalId: t.sessionExternalId,
                  seq: t.seq,
                  speaker: t.speaker,
                  text: t.text,
                  occurredAt: toString(t.occurredAt),
                  metadata: t.metadata,
                  dates: [(t)-[:HAS_PASSAGE]->(p:Passage) WHERE p.dateResolved | {phrase: p.datePhrase, tag: p.dateTag}]
                         + [(t)-[:HAS_PASSAGE]->(p:Passage) WHERE p.dateRecurring IS NOT NULL
                            | {phrase: p.dateRecurring, tag: 'recurring'}]}) AS turns
}
RETURN neighbours, turns
