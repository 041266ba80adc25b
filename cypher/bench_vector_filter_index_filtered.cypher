// Bench scaffolding on a throwaway Neo4j 2026.x: the same vector index, with the workspace as an
// additional property so that SEARCH can filter inside the index (Cypher 25 only).
// Parameters: $dimensions
// Returns: nothing
CYPHER 25
CREATE VECTOR INDEX bench_vector IF NOT EXISTS FOR (n:BenchVector) ON n.embedding WITH [n.workspace]
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                         `vector.quantization.enabled`: false}}
