// Schema version 9's migration: a page of claims, in id order after $after, gets :Searchable, the
// label recall's full-text index (recall_search) now covers claims by. Every claim was in the version 8
// index, so every claim stays in it. GraphClient.apply_schema runs it, one page per transaction, when
// recall_search is missing or made for :Claim (it drops that one first, so Lucene indexes each claim
// once, when schema.cypher makes the index again). Idempotent: a page already labelled is labelled
// again at no cost, and a start cut short starts over on the next (the index is still missing then).
// Parameters: $after (the previous page's last id; "" for the first page), $batch (claims per page)
// Returns: labelled (count), last (the page's last id; null when no claim is left)
MATCH (c:Claim)
WHERE c.id > $after
WITH c
ORDER BY c.id
LIMIT $batch
SET c:Searchable
RETURN count(c) AS labelled, max(c.id) AS last
