// Writes a batch of an import's relationships between nodes it wrote (by their element ids),
// with their properties; temporal ones rebuilt as in workspace_import_nodes.
// Parameters: $relationships: list of {start, end (element ids), type, properties (map),
//             temporal: list of [key, type, text]}
// Returns: created (count), latest (the latest transaction time the relationships carry, as `at`
//          (SUPERSEDED_BY, SURFACED, MERGED_INTO); null if none)
UNWIND $relationships AS row
MATCH (a) WHERE elementId(a) = row.start
MATCH (b) WHERE elementId(b) = row.end
CREATE (a)-[r:$(row.type)]->(b)
SET r = row.properties
FOREACH (t IN row.temporal |
  SET r[t[0]] = CASE t[1]
    WHEN 'ZONED DATETIME' THEN datetime(t[2])
    WHEN 'DATE' THEN date(t[2])
    WHEN 'LOCAL DATETIME' THEN localdatetime(t[2])
    WHEN 'ZONED TIME' THEN time(t[2])
    WHEN 'LOCAL TIME' THEN localtime(t[2])
    WHEN 'DURATION' THEN duration(t[2])
  END
)
RETURN count(r) AS created, max(CASE WHEN r.at IS :: ZONED DATETIME THEN r.at END) AS latest
