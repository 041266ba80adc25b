// Consolidation report: observations and active understandings marked questionable more often than
// useful, with the latest reason, most recently flagged first.
// Parameters: $workspace, $limit
// Returns: id, source, reason, flaggedAt, questionable, useful
MATCH (sig:UtilitySignal {signal: 'questionable'})-[:SIGNALS]->(n)
WHERE sig.workspace = $workspace AND NOT (n)-[:SUPERSEDED_BY]->()
WITH n, sig ORDER BY sig.createdAt DESC
WITH n, collect(sig)[0] AS latest, count(sig) AS questionable
WITH n, latest, questionable, COUNT { (:UtilitySignal {signal: 'useful'})-[:SIGNALS]->(n) } AS useful
WHERE questionable > useful
RETURN n.id AS id, CASE WHEN n:Understanding THEN 'understanding' ELSE 'observation' END AS source,
       latest.reason AS reason, latest.createdAt AS flaggedAt, questionable, useful
ORDER BY flaggedAt DESC
LIMIT $limit
