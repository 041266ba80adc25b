// What recall hands back for turns: text, speaker, when it was said, its session, its dated
// passages, and its neighbours in the session.
// Parameters: $workspace, $ids (list of turn ids)
// Returns: one row, rows: a list of {id, externalId, sessionExternalId, speaker, text, occurredAt,
//          previousId, nextId, dates (list of {phrase, tag} for passages that resolved a time
//          expression)}
UNWIND $ids AS turnId
MATCH (t:Turn {id: turnId})
WHERE t.workspace = $workspace
RETURN collect({id: t.id,
                externalId: t.externalId,
                sessionExternalId: t.sessionExternalId,
                speaker: t.speaker,
                text: t.text,
                occurredAt: t.occurredAt,
                previousId: head([(previous:Turn)-[:NEXT]->(t) | previous.id]),
                nextId: head([(t)-[:NEXT]->(next:Turn) | next.id]),
                dates: [(t)-[:HAS_PASSAGE]->(p:Passage) WHERE p.dateResolved | {phrase: p.datePhrase, tag: p.dateTag}]}) AS rows
