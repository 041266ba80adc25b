// Writes a batch of an import's nodes, as exported: labels, properties, and the temporal ones
// rebuilt from their Cypher text by the matching constructor (the same value: zone or offset,
// nanoseconds). The caller checked labels and property values before, and sets the target
// workspace in the properties. Relationships follow (workspace_import_relationships).
// Parameters: $nodes: list of {labels, properties (map), temporal: list of [key, type, text]}
//             (type: a valueType without ' NOT NULL', e.g. 'ZONED DATETIME')
// Returns: elementId, clockTimes (the node's transaction times: txFrom, txTo, recordedAt,
//          textRecordedAt, createdAt, updatedAt, and the memory's at, startedAt, lastSeenAt,
//          lastBringAt, orientedAt, mergedAt, lastConsolidatedAt) — one row per node, in input order
UNWIND $nodes AS row
CREATE (n:$(row.labels))
SET n = row.properties
FOREACH (t IN row.temporal |
  SET n[t[0]] = CASE t[1]
    WHEN 'ZONED DATETIME' THEN datetime(t[2])
    WHEN 'DATE' THEN date(t[2])
    WHEN 'LOCAL DATETIME' THEN localdatetime(t[2])
    WHEN 'ZONED TIME' THEN time(t[2])
    WHEN 'LOCAL TIME' THEN localtime(t[2])
    WHEN 'DURATION' THEN duration(t[2])
  END
)
RETURN elementId(n) AS elementId,
       [k IN ['txFrom', 'txTo', 'recordedAt', 'textRecordedAt', 'createdAt', 'updatedAt', 'at', 'startedAt',
              'lastSeenAt', 'lastBringAt', 'orientedAt', 'mergedAt', 'lastConsolidatedAt']
        WHERE n[k] IS :: ZONED DATETIME | n[k]] AS clockTimes
