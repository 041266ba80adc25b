// An entity's identity set as donto knew it at $known_at: every key connected to it through
// SAME_AS links known then (txFrom <= $known_at < txTo, either direction, any number of hops),
// itself first, and the links among them.
// Parameters: $workspace, $key (entity key), $known_at (datetime), $limit (other keys at most)
// Returns: keys (the entity's own first), links (list of {id, from, to, reason, method, score,
//          txFrom, txTo, recordedBy}) — no row when the workspace holds no such entity
MATCH (e:Entity {workspace: $workspace, key: $key})
OPTIONAL MATCH ANY SHORTEST
  (e)(()-[s:SAME_AS WHERE s.txFrom <= $known_at AND (s.txTo IS NULL OR s.txTo > $known_at)]-())+(other:Entity)
WITH e, collect(DISTINCT other) AS others
WITH [e] + [o IN others WHERE o <> e][..$limit] AS members
CALL (members) {
  UNWIND members AS m
  MATCH (m)-[r:SAME_AS]->(n:Entity)
  WHERE n IN members AND r.txFrom <= $known_at AND (r.txTo IS NULL OR r.txTo > $known_at)
  RETURN collect(r {.id, .reason, .method, .score, .txFrom, .txTo, .recordedBy, from: m.key, to: n.key}) AS links
}
RETURN [m IN members | m.key] AS keys, links
