// Moves $workspace's transaction clock on to at least $at, so that every write after an import
// gets a later transaction time than every one it restored (recorded on a server whose clock may
// have been ahead). Run after transaction_time_next for the same workspace, in the same
// transaction (which holds the lock).
// Parameters: $workspace, $at (datetime)
// Returns: last
MATCH (clock:TransactionClock {workspace: $workspace})
SET clock.last = CASE WHEN clock.last IS NULL OR clock.last < $at THEN $at ELSE clock.last END
RETURN clock.last AS last
