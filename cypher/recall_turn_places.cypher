// Where recall's candidate turns sit, for fusion to weigh them: their session and who said them.
// The arms hand back both for every turn they find themselves; this reads them for the rest of the
// candidate pool, the turns a claim's evidence cites (neighbours and the chosen turns' details are
// recall_turns_around).
// Parameters: $workspace, $ids (list of turn ids)
// Returns: one row, rows: a list of {id, sessionExternalId, speaker}
UNWIND $ids AS turnId
MATCH (t:Turn {id: turnId})
WHERE t.workspace = $workspace
RETURN collect({id: t.id, sessionExternalId: t.sessionExternalId, speaker: t.speaker}) AS rows
