// Claims and document passages written but not yet embedded (label :PendingEmbedding, a durable
// queue in the graph), optionally of one workspace; the embedder drains them in batches. A claim
// without its one-line text (made by hand in the Browser, say) is embedded as subject, predicate
// and object, so that it cannot stop the queue for every workspace. A passage of a transcript is
// embedded with its speaker, as a turn's passage is ("Caroline: ...").
// Parameters: $workspace (or null for every workspace), $limit (integer)
// A passage also gets its context embedded: the passage before it (in its document) and itself,
// as a turn's exchange is.
// Returns: id, kind ('claim' | 'passage'), text, context (a passage's; null for a claim)
MATCH (c:PendingEmbedding)
WHERE $workspace IS NULL OR c.workspace = $workspace
WITH c LIMIT $limit
WITH c, CASE WHEN c:Passage THEN head([(previous:Passage)-[:NEXT]->(c) | previous]) END AS previous
WITH c, previous,
     [p IN [previous, c] WHERE p IS NOT NULL |
      CASE WHEN p.speaker IS NOT NULL AND NOT p.text STARTS WITH p.speaker + ':' THEN p.speaker + ': ' + p.text
           ELSE p.text END] AS spoken
RETURN c.id AS id, CASE WHEN c:Passage THEN 'passage' ELSE 'claim' END AS kind,
       CASE WHEN c:Passage THEN last(spoken)
            ELSE coalesce(c.text, c.subject + ' ' + c.predicate + ' ' + coalesce(c.object, ''), '') END AS text,
       CASE WHEN c:Passage THEN reduce(joined = head(spoken), line IN tail(spoken) | joined + '\n' + line) END AS context
