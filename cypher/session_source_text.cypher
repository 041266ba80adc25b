// The live turns of an episode session that say something, in order, as a memorize job reads
// them: each turn's id, speaker and text (a turn is an evidence target of its own), and when it was
// said (the turn's own time, else the session's start, else when it was recorded), which its facts'
// dates resolve against. A retracted turn is no source, nor an empty one.
// Parameters: $workspace, $session_id (the session's id, not its external id)
// Returns: turnId, speaker, text, saidAt — one row per turn, in order
MATCH (s:Session {id: $session_id})-[:HAS_TURN]->(t:Turn)
WHERE s.workspace = $workspace AND t.txTo IS NULL AND trim(t.text) <> ''
RETURN t.id AS turnId, t.speaker AS speaker, t.text AS text, coalesce(t.occurredAt, s.startedAt, t.txFrom) AS saidAt
ORDER BY t.seq
