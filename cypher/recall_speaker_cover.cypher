// Recall arm, coverage by person: a question that names people ("Which cities have both Kate and
// Elise been to?") asks of each of them; for each session and each person the question names who
// speaks in it, the turns of theirs nearest the query vector (cosine), so that each person's word in
// each session is nominated. A speaker is named when a word of the speaker's name (longer than two
// letters, lower case) is one of $cover_names. The $cover_candidates nearest of the workspace's turns
// (filtered inside the vector index, as recall_turn_vector), then the time scope and $sessions, then at most
// $cover_per_session of each session and speaker, ordered by score. No rows when the question names
// no one who speaks.
// Parameters: $workspace, $vector (list of floats), $cover_names (list of lower-case words),
//             $cover_candidates, $cover_per_session, $limit (integers), $valid_at, $known_at (datetimes),
//             $sessions (list of session external ids, or null: every session)
// Returns: one row, rows: a list of {turnId, place, score}, best first
//          place: the found turn's {sessionExternalId, speaker}, by which fusion weighs it
// A turn with no letter or digit ("?", "😂") is not found by itself: its vector is near any short
// question (e5 puts "Paola: ?" first for "What sport does Paola do?"); it still comes beside its neighbours.
CYPHER 25
WITH 1 AS holds WHERE size($cover_names) > 0
                  AND EXISTS { MATCH (t:Turn) WHERE t.workspace = $workspace AND t.sessionExternalId IS NOT NULL
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
  AND any(word IN split(toLower(coalesce(node.speaker, '')), ' ') WHERE size(word) > 2 AND word IN $cover_names)
WITH node, score
ORDER BY score DESC
WITH node.sessionExternalId AS session, node.speaker AS speaker,
     collect({node: node, score: score})[0..$cover_per_session] AS best
UNWIND best AS hit
WITH hit.node AS node, hit.score AS score
ORDER BY score DESC
LIMIT $limit
RETURN collect({turnId: node.id, place: node {.sessionExternalId, .speaker}, score: score}) AS rows
