// The transaction time of the current write in $workspace: strictly increasing across the
// workspace's committed writes. Every write transaction runs this first. Each workspace has its
// own clock node (MERGEd under the transaction_clock_workspace constraint), and `SET clock.lock`
// takes its write lock, so the workspace's concurrent writers queue here and commit in the order
// of the times they get, while writers of other workspaces go on; a reader asking as of a write's
// recorded_at therefore sees that write and no later one of its workspace. A new workspace clock
// starts from the old single clock's last time (graphs written before per-workspace clocks), so
// times never go backwards after an upgrade. Microsecond precision, so the value round-trips
// through any ISO-8601 client unchanged.
// Parameters: $workspace
// Returns: recorded_at (datetime, UTC)
OPTIONAL MATCH (legacy:TransactionClock {name: 'donto'})  // read, never locked
MERGE (clock:TransactionClock {workspace: $workspace})
  ON CREATE SET clock.last = legacy.last
SET clock.lock = true
WITH clock, datetime.truncate('microsecond', datetime.realtime('Z')) AS now
SET clock.last = CASE
      WHEN clock.last IS NULL OR now > clock.last THEN now
      ELSE clock.last + duration({microseconds: 1})
    END
RETURN clock.last AS recorded_at
