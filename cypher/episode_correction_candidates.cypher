// The turns a session's new turns may correct (app/episodes/corrections.py), in the write
// transaction of episode_write, so the new turns are among them: the session's live turns with a
// seq from $from_seq (the first correcting turn's, less a bounded window back) up to before $to_seq
// (the last correcting turn's), by the speakers of the correcting turns, in order. A retracted turn
// is corrected by nothing.
// Parameters: $workspace, $session_external_id, $speakers (list of strings), $from_seq, $to_seq (integers)
// Returns: one row, rows: a list of {id, externalId, seq, speaker, text}, by seq
MATCH (s:Session {workspace: $workspace, externalId: $session_external_id})-[:HAS_TURN]->(t:Turn)
WHERE $from_seq <= t.seq < $to_seq AND t.txTo IS NULL AND t.speaker IN $speakers
WITH t ORDER BY t.seq
RETURN collect(t {.id, .externalId, .seq, .speaker, .text}) AS rows
