// Benchmark cleanup (bench/ingest.py): removes the floor's nodes (bench_ingest_floor), a batch at a time.
// Parameters: $limit (integer)
// Returns: deleted (count)
MATCH (n:BenchIngestFloor)
WITH n LIMIT $limit
DELETE n
RETURN count(*) AS deleted
