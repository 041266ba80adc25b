// Puts a page of document passages back on the embedding queue (after the embedding model changed),
// in id order after $after, as claims_queue_all_for_embedding does for claims. A turn's passages
// are encoded with their turn instead (reembed_turns_page).
// Parameters: $after (the previous page's last id; "" for the first page), $limit (integer)
// Returns: queued (count), last (the page's last id; null when none is left)
MATCH (p:Passage)
WHERE p.id > $after AND p.documentId IS NOT NULL
WITH p
ORDER BY p.id
LIMIT $limit
SET p:PendingEmbedding
RETURN count(p) AS queued, max(p.id) AS last
