// What recall hands back for the turns it chose: text, speaker, when it was said, its session and
// its dated passages. Recall reads them with the neighbours in recall_turns_around; this reads the
// few that one did not hold (those a reranker reorders, and those past the best k that spreading
// the first items over sessions weighs).
// Parameters: $workspace, $ids (list of turn ids)
// Returns: one row, rows: a list of {id, externalId, sessionExternalId, seq (its place in the
//          session), speaker, text, occurredAt (ISO-8601 text), metadata (the caller's JSON text, or null),
//          dates (list of {phrase, tag} for passages that resolved a time expression, then
//          {phrase, tag: 'recurring'} for those that name a recurring time, which is no date)}
UNWIND $ids AS turnId
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
                          | {phrase: p.dateRecurring, tag: 'recurring'}]}) AS rows
