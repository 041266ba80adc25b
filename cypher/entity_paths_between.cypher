// Paths from one entity to another through claims, shortest first (up to 10 per pair). Each hop
// is one claim linking two entities, followed either way (subject -> object or object -> subject).
// Only claims valid at $valid_at and known at $known_at take part. $from and $to are each an
// entity's key, or its identity set (entity_identity.cypher): then the paths between any of their keys.
// Parameters: $workspace, $from, $to (lists of entity keys), $max_hops (1..3),
//             $valid_at, $known_at (datetimes), $limit (integer)
// Returns: entities (entity keys along the path),
//          claims (one {id, subject, predicate, object} per hop, in order)
MATCH (start:Entity {workspace: $workspace}), (finish:Entity {workspace: $workspace})
WHERE start.key IN $from AND finish.key IN $to AND start <> finish
MATCH path = SHORTEST 10 (start)(
    (x:Entity)<-[:SUBJECT|OBJECT]-(c:Claim)-[:SUBJECT|OBJECT]->(y:Entity)
    WHERE x <> y
      AND c.txFrom <= $known_at AND (c.txTo IS NULL OR c.txTo > $known_at)
      AND (c.validFrom IS NULL OR c.validFrom <= $valid_at) AND (c.validTo IS NULL OR c.validTo > $valid_at)
  ){1,3}(finish)
WHERE size(c) <= $max_hops
RETURN [e IN nodes(path) WHERE e:Entity | e.key] AS entities,
       [claim IN c | {id: claim.id, subject: claim.subject, predicate: claim.predicate, object: claim.object}] AS claims
ORDER BY size(claims), entities
LIMIT $limit
