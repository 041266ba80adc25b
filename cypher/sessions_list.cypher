// A workspace's sessions in the order they began (by id: ids are time-ordered), as known at
// $known_at: those recorded by then, each with how many of its turns were live then and when the
// first and last of those were said (a turn with no time of its own: its session's start, else when
// it was recorded). Keyset paging: the $limit sessions after the id $after ('' for the first page).
// $prefix keeps only the sessions whose external id starts with it ('' keeps all): an adapter's
// own sessions (adk:app/user/...) without listing the workspace's others.
// Parameters: $workspace, $after (a session id, or ''), $limit (integer), $known_at (datetime),
//             $prefix (string, '' for all)
// Returns: one row, rows: a list of {id, externalId, startedAt, recordedAt, turnCount, firstAt, lastAt}
MATCH (s:Session)
WHERE s.workspace = $workspace AND s.id > $after AND s.txFrom <= $known_at
  AND s.externalId STARTS WITH $prefix
WITH s ORDER BY s.id
LIMIT $limit
CALL (s) {
  MATCH (s)-[:HAS_TURN]->(t:Turn)
  WHERE t.txFrom <= $known_at AND (t.txTo IS NULL OR t.txTo > $known_at)
  WITH coalesce(t.occurredAt, s.startedAt, t.txFrom) AS saidAt
  RETURN count(*) AS turnCount, min(saidAt) AS firstAt, max(saidAt) AS lastAt
}
RETURN collect({id: s.id, externalId: s.externalId, startedAt: s.startedAt, recordedAt: s.txFrom,
                turnCount: turnCount, firstAt: firstAt, lastAt: lastAt}) AS rows
