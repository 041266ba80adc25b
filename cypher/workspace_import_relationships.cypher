// Writes a batch of an import's relationships between nodes it wrote (by their element ids),
// with their properties; temporal ones rebuilt as in workspace_import_nodes.
// Parameters: $relationships: list of {start, end (element ids), type, properties (map),
//             temporal: list of [key, type, text]}
// Returns: created (count), latest (the latest transaction time the relationships carry, as `at`
//          (SUPERSEDED_BY, SURFACED, MERGED_INTO) or txFrom and txTo (SAME_AS); null if none)
UNWIND $relationships AS row
MATCH (a) WHERE elementId(a) = row.start
MATCH (b) WHERE elementId(b) = row.end
// a file exported before schema version 6 has understandings ABOUT their subjects: they UNDERSTAND them now
CREATE (a)-[r:$(CASE WHEN row.type = 'ABOUT' AND a:Understanding THEN 'UNDERSTANDS' ELSE row.type END)]->(b)
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
WITH r, [t IN [r.at, r.txFrom, r.txTo] WHERE t IS :: ZONED DATETIME] AS times
UNWIND (CASE WHEN times = [] THEN [null] ELSE times END) AS time
RETURN count(DISTINCT r) AS created, max(time) AS latest
