// Recall arm: sessions ranked by full-text (Lucene BM25) over each session's whole text. It finds
// no turns itself: a turn the other arms found gains its session's share, so that a conversation
// matching the question as a whole lifts its turns. A session takes part only when all of its
// text was recorded by $known_at and said by $valid_at: what was unknown then must not weigh (a
// turn's retraction changes the text too: session_text_write keeps only live turns). Only $sessions where given.
// Lucene keeps to the workspace itself, as in recall_fulltext (see there).
// Parameters: $workspace, $lucene (a Lucene query over the text: 'melanie OR paint'), $fulltext_candidates, $limit (integers),
//             $valid_at, $known_at (datetimes), $sessions (list of session external ids, or null: every session)
// Returns: one row, rows: a list of {sessionExternalId, score}, best first
CALL db.index.fulltext.queryNodes('session_text', '+workspace:"' + $workspace + '"^0 +text:(' + $lucene + ')',
  {limit: $fulltext_candidates}) YIELD node, score
WITH node, score
WHERE node.workspace = $workspace
  AND node.textRecordedAt <= $known_at AND (node.lastSaidAt IS NULL OR node.lastSaidAt <= $valid_at)
  AND ($sessions IS NULL OR node.externalId IN $sessions)
WITH node, score
ORDER BY score DESC
LIMIT $limit
RETURN collect({sessionExternalId: node.externalId,
                score: score}) AS rows
