// A page of turns to embed again, each with the turn before it (its exchange), in id order.
// Parameters: $after (turn id, or '' to start), $limit (integer)
// Returns: id, sessionId, speaker, text, previousSpeaker, previousText, passages (list of {id, text})
MATCH (t:Turn)
WHERE t.id > $after
WITH t ORDER BY t.id LIMIT $limit
OPTIONAL MATCH (previous:Turn)-[:NEXT]->(t)
RETURN t.id AS id, t.sessionId AS sessionId, t.speaker AS speaker, t.text AS text,
       previous.speaker AS previousSpeaker, previous.text AS previousText,
       [(t)-[:HAS_PASSAGE]->(p:Passage) | {id: p.id, text: p.text}] AS passages
