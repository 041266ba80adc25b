// Full-text search (English analyzer) over a workspace's observations and understandings (text
// and summary), best first; Lucene syntax in $text is escaped by the service. Lucene keeps to the
// workspace itself, as in recall_fulltext (see there); the headroom is for superseded items.
// Parameters: $workspace, $text (a Lucene query over the text: 'melanie OR paint'), $limit
// Returns: id, score
CALL db.index.fulltext.queryNodes('memory_text',
  '+workspace:"' + $workspace + '"^0 +(text:(' + $text + ') OR summary:(' + $text + '))',
  {limit: $limit * 20}) YIELD node, score
WHERE node.workspace = $workspace AND NOT (node)-[:SUPERSEDED_BY]->()
RETURN node.id AS id, score
ORDER BY score DESC
LIMIT $limit
