// Every entity reachable from one entity through at most $max_hops claims, each with one
// shortest path. Each hop is one claim linking two entities, followed either way.
// Only claims valid at $valid_at and known at $known_at take part. $from is the entity's key, or
// its identity set (entity_identity.cypher): then the paths from every key in it, to keys outside it.
// Parameters: $workspace, $from (list of entity keys), $max_hops (1..3),
//             $valid_at, $known_at (datetimes), $limit (integer)
// Returns: entities (entity keys along the path),
//          claims (one {id, subject, predicate, object} per hop, in order)
MATCH (start:Entity {workspace: $workspace})
WHERE start.key IN $from
MATCH path = ANY SHORTEST (start)(
    (x:Entity)<-[:SUBJECT|OBJECT]-(c:Claim)-[:SUBJECT|OBJECT]->(y:Entity)
    WHERE x <> y
      AND c.txFrom <= $known_at AND (c.txTo IS NULL OR c.txTo > $known_at)
      AND (c.validFrom IS NULL OR c.validFrom <= $valid_at) AND (c.validTo IS NULL OR c.validTo > $valid_at)
  ){1,3}(finish:Entity)
WHERE size(c) <= $max_hops AND NOT finish.key IN $from
RETURN [e IN nodes(path) WHERE e:Entity | e.key] AS entities,
       [claim IN c | {id: claim.id, subject: claim.subject, predicate: claim.predicate, object: claim.object}] AS claims
ORDER BY size(claims), entities
LIMIT $limit
