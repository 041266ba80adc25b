// Records each entity's fold (its key without accents, punctuation, spaces or hyphens; see
// app/identity/service.py) and answers the other keys of the workspace with the same fold: the
// candidates for an identity link that the key normaliser does not fold together.
// Parameters: $workspace, $entities: list of {key, fold}
// Returns: key, others (keys of the workspace with the same fold, the key itself left out) — one
//          row per entity the workspace holds
UNWIND $entities AS row
MATCH (e:Entity {workspace: $workspace, key: row.key})
SET e.fold = row.fold
WITH e, row
CALL (e, row) {
  OPTIONAL MATCH (other:Entity {workspace: $workspace, fold: row.fold})
  WHERE other <> e
  RETURN collect(other.key) AS others
}
RETURN e.key AS key, others
