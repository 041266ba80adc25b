// What recall hands back for turns: text, speaker, when it was said, its session, its dated
// passages, and its neighbours in the session.
// Parameters: $workspace, $ids (list of turn ids)
// Returns: id, externalId, sessionExternalId, speaker, text, occurredAt, previousId, nextId,
//          dates (list of {phrase, tag} for passages that resolved a time expression)
UNWIND $ids AS turnId
MATCH (t:Turn {id: turnId})
WHERE t.workspace = $workspace
RETURN t.id AS id, t.externalId AS externalId, t.sessionExternalId AS sessionExternalId,
       t.speaker AS speaker, t.text AS text, t.occurredAt AS occurredAt,
       head([(previous:Turn)-[:NEXT]->(t) | previous.id]) AS previousId,
       head([(t)-[:NEXT]->(next:Turn) | next.id]) AS nextId,
       [(t)-[:HAS_PASSAGE]->(p:Passage) WHERE p.dateResolved | {phrase: p.datePhrase, tag: p.dateTag}] AS dates
