// Bench: the state of the bench's indexes, polled until they are online.
// Parameters: none
// Returns: name, state, progress (percent populated)
SHOW INDEXES YIELD name, state, populationPercent
WHERE name STARTS WITH 'bench_vector'
RETURN name, state, populationPercent AS progress
