// Browser guide: where recall's items came from. For claims about $entity (or the claim $claim,
// or the 10 claims recorded last): the evidence spans they cite, the document or turn each span
// is cut from (and that turn's session), and the extraction job that wrote the claim, if any.
// Parameters: $workspace, $claim (claim id, or null), $entity (entity key, or null)
// Returns: one row per claim: claim ("subject · predicate · object"), quotes (span texts),
//          sources (titles of documents, or "speaker: text" of turns), job (id of the job that
//          extracted it, or null), and the graph: evidence (paths claim -> span -> document | turn
//          <- session) and extracted (job -> claim)
MATCH (c:Claim {workspace: $workspace})
WHERE ($claim IS NULL OR c.id = $claim) AND ($entity IS NULL OR c.subject = $entity OR c.object = $entity)
WITH c ORDER BY c.txFrom DESC LIMIT 10
OPTIONAL MATCH evidence = (c)-[:EVIDENCED_BY]->(span:Span)-[:IN]->(source)
OPTIONAL MATCH session = (source)<-[:HAS_TURN]-(:Session)
OPTIONAL MATCH extracted = (job:Job)-[:EXTRACTED]->(c)
RETURN c.subject + ' · ' + c.predicate + ' · ' + c.object AS claim,
       collect(DISTINCT span.text) AS quotes,
       collect(DISTINCT coalesce(source.title, source.speaker + ': ' + source.text)) AS sources,
       head(collect(DISTINCT job.id)) AS job,
       collect(DISTINCT evidence) AS evidence, collect(DISTINCT session) AS sessions,
       collect(DISTINCT extracted) AS extracted
