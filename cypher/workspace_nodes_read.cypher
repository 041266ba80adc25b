// Nodes of an export, whole: labels, every property, and every relationship going out of each
// with the node it reaches. Temporal values come as their Cypher text (toString), which the
// matching constructor (datetime(), date(), ...) reads back to the same value, zone or offset
// and nanoseconds included.
// Parameters: $element_ids (list of element ids, from workspace_nodes)
// Returns: elementId, labels, properties (list of [key, valueType, value]),
//          relationships (list of {type, properties (as above), target: {labels, workspace, id, key,
//          name, jobId, attempt, seq, targetId, perspective}}) — one row per node still there
UNWIND $element_ids AS wanted
MATCH (n) WHERE elementId(n) = wanted
RETURN wanted AS elementId, labels(n) AS labels,
       [k IN keys(n) | [k, valueType(n[k]),
          CASE WHEN n[k] IS :: DATE | ZONED DATETIME | LOCAL DATETIME | ZONED TIME | LOCAL TIME | DURATION
               THEN toString(n[k]) ELSE n[k] END]] AS properties,
       [(n)-[r]->(m) | {
          type: type(r),
          properties: [k IN keys(r) | [k, valueType(r[k]),
            CASE WHEN r[k] IS :: DATE | ZONED DATETIME | LOCAL DATETIME | ZONED TIME | LOCAL TIME | DURATION
                 THEN toString(r[k]) ELSE r[k] END]],
          target: m {labels: labels(m), .workspace, .id, .key, .name, .jobId, .attempt, .seq, .targetId, .perspective}
       }] AS relationships
