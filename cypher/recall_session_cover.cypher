// Recall arm, coverage: the best turns of each session for the query vector (cosine), so that every
// session that speaks of what the question asks is nominated, not only the few whose turns crowd
// the top of the turn arm. The $cover_candidates nearest of the workspace's turns (filtered inside
// the vector index, as recall_turn_vector), then the time scope and $sessions, then at most $cover_per_session of
// each session, sessions ordered by their best turn. An aggregate question ("What are Kate's
// hobbies?") rests on a turn in each of several sessions, each of which may rank low against the
// others.
// Parameters: $workspace, $vector (list of floats), $cover_candidates, $cover_per_session, $limit
//             (integers), $valid_at, $known_at (datetimes), $sessions (list of session external ids, or null: every session)
// Returns: one row, rows: a list of {turnId, place, score}, best first
//          place: the found turn's {sessionExternalId, speaker}, by which fusion weighs it
// A turn with no letter or digit ("?", "😂") is not found by itself: its vector is near any short
// question (e5 puts "Paola: ?" first for "What sport does Paola do?"); it still comes beside its neighbours.
CYPHER 25
WITH 1 AS holds WHERE EXISTS { MATCH (t:Turn) WHERE t.workspace = $workspace AND t.sessionExternalId IS NOT NULL
                                        AND t.externalId IS NOT NULL }
MATCH (node:Turn)
  SEARCH node IN (VECTOR INDEX turn_embedding FOR $vector WHERE node.workspace = $workspace LIMIT $cover_candidates)
  SCORE AS score
WITH node, score
WHERE node.txFrom <= $known_at AND (node.txTo IS NULL OR node.txTo > $known_at)
  AND (node.occurredAt IS NULL OR node.occurredAt <= $valid_at)
  AND ($sessions IS NULL OR node.sessionExternalId IN $sessions)
  AND node.text =~ '(?s).*[\\p{L}\\p{N}].*'  // says something: a letter or a digit
  AND node.sessionExternalId IS NOT NULL
WITH node, score
ORDER BY score DESC
WITH node.sessionExternalId AS session, collect({node: node, score: score})[0..$cover_per_session] AS best
UNWIND best AS hit
WITH hit.node AS node, hit.score AS score
ORDER BY score DESC
LIMIT $limit
RETURN collect({turnId: node.id, place: node {.sessionExternalId, .speaker}, score: score}) AS rows
