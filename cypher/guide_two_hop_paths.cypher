// Browser guide: what connects two entities? Paths of one or two claims between $entity and
// $other (followed either way), through claims known now. Without $other: every entity two claims
// away from $entity; without either: from the entity most claims name.
// Parameters: $workspace, $entity, $other (entity keys, or null)
// Returns: path (entity, claim, entity[, claim, entity]), hops — at most 25 rows, shortest first
CALL () {
  MATCH (start:Entity {workspace: $workspace, key: $entity}) RETURN start
  UNION
  MATCH (start:Entity {workspace: $workspace})<-[r:SUBJECT|OBJECT]-(:Claim) WHERE $entity IS NULL AND start.key IS NOT NULL
  WITH start, count(r) AS named ORDER BY named DESC, start.key LIMIT 1
  RETURN start
}
MATCH path = (start)((x:Entity)<-[:SUBJECT|OBJECT]-(c:Claim)-[:SUBJECT|OBJECT]->(y:Entity) WHERE x <> y AND c.txTo IS NULL){1,2}(finish:Entity)
WHERE finish <> start AND ($other IS NULL OR finish.key = $other)
RETURN path, size(c) AS hops
ORDER BY hops
LIMIT 25
