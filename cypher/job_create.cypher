// Makes a job: queued for the workers, or (a synchronous request) already running, leased to the
// request that runs it. Its request is kept whole (as JSON text) for the audit; the source it
// reads (a registered document revision or an episode session) is linked, so an analyst sees
// what each extraction read.
// Parameters: $workspace, $id, $kind ('extract'), $request (JSON text), $mode,
//             $source_kind ('document' | 'session'), $source_id, $created_at (datetime),
//             $max_attempts (integer), $lease_owner (null: queued), $lease_until (datetime or null)
// Returns: id, createdAt
CREATE (j:Job {
  id: $id, workspace: $workspace, kind: $kind, request: $request, mode: $mode,
  sourceKind: $source_kind, sourceId: $source_id, createdAt: $created_at,
  maxAttempts: $max_attempts, cancelRequested: false,
  state: CASE WHEN $lease_owner IS NULL THEN 'queued' ELSE 'running' END,
  attempts: CASE WHEN $lease_owner IS NULL THEN 0 ELSE 1 END,
  leaseOwner: $lease_owner, leaseUntil: $lease_until,
  startedAt: CASE WHEN $lease_owner IS NULL THEN null ELSE $created_at END
})
WITH j
CALL (j) {
  MATCH (d:Document {id: $source_id}) WHERE $source_kind = 'document' AND d.workspace = $workspace
  RETURN d AS source
  UNION
  MATCH (d:Session {id: $source_id}) WHERE $source_kind = 'session' AND d.workspace = $workspace
  RETURN d AS source
}
MERGE (j)-[:READS]->(source)
WITH j
CALL (j) {  // a queued job waits in its workspace's lane
  WITH j WHERE j.state = 'queued'
  MERGE (lane:JobLane {workspace: j.workspace})
  SET lane.queued = coalesce(lane.queued, 0) + 1
}
RETURN j.id AS id, j.createdAt AS createdAt
