// Bench scaffolding: a range index on :BenchVector's workspace, for the exact per-workspace scan.
// Parameters: none
// Returns: nothing
CREATE INDEX bench_vector_workspace IF NOT EXISTS FOR (n:BenchVector) ON (n.workspace)
