// The embedding model this database's vectors come from (as schema_version_record wrote it), with
// their dimension (the API applies the schema with it while the model still loads), and whether any
// node holds a vector yet: a store with none can take any model without `donto reembed`.
// Parameters: none
// Returns: model (string, or null before the first schema), dimensions (its vectors' dimension, or
// null), embedded (boolean)
OPTIONAL MATCH (s:DontoSchema {name: 'donto'})
RETURN s.embeddingModel AS model,
       s.embeddingDimensions AS dimensions,
       EXISTS { MATCH (t:Turn) WHERE t.embedding IS NOT NULL }
       OR EXISTS { MATCH (p:Passage) WHERE p.embedding IS NOT NULL }
       OR EXISTS { MATCH (c:Claim) WHERE c.embedding IS NOT NULL }
       OR EXISTS { MATCH (s2:Subject) WHERE s2.embedding IS NOT NULL }
       OR EXISTS { MATCH (v:PerspectiveVector) WHERE v.embedding IS NOT NULL } AS embedded
