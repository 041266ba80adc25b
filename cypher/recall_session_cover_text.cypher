// Recall arm, coverage by words: the turns of each session whose text best matches the question's
// words (Lucene BM25 over turn text, not the speaker field: every turn of a person the question
// names would match), at most $cover_per_session of each session, sessions ordered by their best
// turn, so that every session that names what the question names is nominated. Lucene keeps to the
// workspace itself, as in recall_fulltext (see there).
// Parameters: $workspace, $lucene (a Lucene query over the text: 'melanie OR paint'), $cover_text_candidates,
//             $cover_per_session, $limit (integers), $valid_at, $known_at (datetimes),
//             $sessions (list of session external ids, or null: every session)
// Returns: one row, rows: a list of {turnId, place, score}, best first
//          place: the found turn's {sessionExternalId, speaker}, by which fusion weighs it
CALL db.index.fulltext.queryNodes('recall_search', '+workspace:"' + $workspace + '"^0 +text:(' + $lucene + ')',
  {limit: $cover_text_candidates}) YIELD node, score
WITH node, score
WHERE node:Turn AND node.workspace = $workspace AND node.txFrom <= $known_at
  AND (node.txTo IS NULL OR node.txTo > $known_at)
  AND (node.occurredAt IS NULL OR node.occurredAt <= $valid_at)
  AND node.sessionExternalId IS NOT NULL AND ($sessions IS NULL OR node.sessionExternalId IN $sessions)
WITH node, score
ORDER BY score DESC
WITH node.sessionExternalId AS session, collect({node: node, score: score})[0..$cover_per_session] AS best
UNWIND best AS hit
WITH hit.node AS node, hit.score AS score
ORDER BY score DESC
LIMIT $limit
RETURN collect({turnId: node.id, place: node {.sessionExternalId, .speaker}, score: score}) AS rows
