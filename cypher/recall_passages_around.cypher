// Recall's last read for registered documents' passages, as recall_turns_around is for turns: the
// passages just before and after the strongest ones (NEXT, in the same revision, so in the same time
// scope as the hit), and what recall hands back for the best passages and those neighbours: the
// text, its offsets in its revision, the document's id, revision, title and date, and the date the
// passage's own time expression resolved to.
// Parameters: $workspace, $strongest (passage ids whose neighbours are asked), $ids (passage ids
//             whose details are asked), $known_at (datetime: a version's end is told as known then)
// Returns: one row: neighbours, a list of {id, previousId, nextId} (one per strongest passage), and
//          passages, a list of {id, documentId, externalId, revision, title, speaker, seq, blockStart
//          (where its line starts), text, start, end,
//          occurredAt (ISO-8601 text), datePhrase, dateTag (null unless the passage resolved a time expression;
//          for one that resolved none but names a recurring time, that phrase and 'recurring'),
//          validTo (ISO-8601 text: where a later version of its document ends it, as known at $known_at; else null)}
CALL () {
  UNWIND $strongest AS passageId
  MATCH (p:Passage {id: passageId})
  WHERE p.workspace = $workspace
  RETURN collect({id: p.id,
                  previousId: head([(previous:Passage)-[:NEXT]->(p) | previous.id]),
                  nextId: head([(p)-[:NEXT]->(next:Passage) | next.id])}) AS neighbours
}
CALL (neighbours) {
  UNWIND $ids + [n IN neighbours | n.previousId] + [n IN neighbours | n.nextId] AS passageId
  WITH DISTINCT passageId
  MATCH (d:Document)-[:HAS_PASSAGE]->(p:Passage {id: passageId})
  WHERE p.workspace = $workspace
  RETURN collect({id: p.id, documentId: d.id, externalId: d.externalId, revision: d.revision, title: d.title,
                  speaker: p.speaker, seq: p.seq, blockStart: p.blockStart,
                  text: p.text, start: p.start, end: p.end, occurredAt: toString(d.occurredAt),
                  datePhrase: CASE WHEN p.dateResolved THEN p.datePhrase ELSE p.dateRecurring END,
                  dateTag: CASE WHEN p.dateResolved THEN p.dateTag WHEN p.dateRecurring IS NOT NULL THEN 'recurring' END,
                  validTo: CASE WHEN p.validToRecordedAt <= $known_at THEN toString(p.validTo) END}) AS passages
}
RETURN neighbours, passages
