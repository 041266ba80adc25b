// Puts a page of claims back on the embedding queue (after the embedding model changed), in id
// order after $after: `donto reembed` runs one page per transaction, so that a million claims never
// sit in one transaction's memory (in one, they overran Neo4j's transaction memory limit).
// Parameters: $after (the previous page's last id; "" for the first page), $limit (integer)
// Returns: queued (count), last (the page's last id; null when no claim is left)
MATCH (c:Claim)
WHERE c.id > $after
WITH c
ORDER BY c.id
LIMIT $limit
SET c:PendingEmbedding
RETURN count(c) AS queued, max(c.id) AS last
