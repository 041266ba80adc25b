// The transaction time of the current write: strictly increasing across committed writes.
// Every write transaction runs this first. `SET clock.lock` takes the write lock on the single
// clock node, so concurrent writers queue here and commit in the order of the times they get;
// a reader asking as of a write's recorded_at therefore sees that write and no later one.
// Microsecond precision, so the value round-trips through any ISO-8601 client unchanged.
// Parameters: none
// Returns: recorded_at (datetime, UTC)
MATCH (clock:TransactionClock {name: 'donto'})
SET clock.lock = true
WITH clock, datetime.truncate('microsecond', datetime.realtime('Z')) AS now
SET clock.last = CASE
      WHEN clock.last IS NULL OR now > clock.last THEN now
      ELSE clock.last + duration({microseconds: 1})
    END
RETURN clock.last AS recorded_at
