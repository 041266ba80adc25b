// Bench scaffolding on a throwaway server (the product's indexes live in schema.cypher): the
// vector index over :BenchVector as donto's recall indexes were made on Neo4j 5.26 (cosine,
// quantisation off, no filter properties).
// Parameters: $dimensions
// Returns: nothing
CREATE VECTOR INDEX bench_vector IF NOT EXISTS FOR (n:BenchVector) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                         `vector.quantization.enabled`: false}}
