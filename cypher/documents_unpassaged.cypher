// Documents registered before schema version 10, which gave documents passages and transaction
// time: a page of those not yet given them (no txFrom), with what their passages need. A revision
// that a later one REVISES was replaced when that one was recorded.
// Parameters: $limit (integer)
// Returns: id, text, occurredAt, recordedAt, replacedAt (null while current)
MATCH (d:Document)
WHERE d.txFrom IS NULL
RETURN d.id AS id, d.text AS text, d.occurredAt AS occurredAt, d.recordedAt AS recordedAt,
       head([(later:Document)-[:REVISES]->(d) | later.recordedAt]) AS replacedAt
LIMIT $limit
