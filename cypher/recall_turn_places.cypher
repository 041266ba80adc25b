// Where recall's candidate turns sit, for fusion to weigh them: their session, who said them and
// their neighbours in the session (what recall hands back for the chosen few is recall_turns).
// Parameters: $workspace, $ids (list of turn ids)
// Returns: one row, rows: a list of {id, sessionExternalId, speaker, previousId, nextId}
UNWIND $ids AS turnId
MATCH (t:Turn {id: turnId})
WHERE t.workspace = $workspace
RETURN collect({id: t.id,
                sessionExternalId: t.sessionExternalId,
                speaker: t.speaker,
                previousId: head([(previous:Turn)-[:NEXT]->(t) | previous.id]),
                nextId: head([(t)-[:NEXT]->(next:Turn) | next.id])}) AS rows
