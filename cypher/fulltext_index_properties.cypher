// The labels and properties each of donto's full-text indexes covers: since schema version 8 every
// one ends with the nodes' `workspace`, which every full-text query requires; since version 9
// recall_search covers claims by :Searchable.
// Parameters: $names (list of index names)
// Returns: name, labels, properties
SHOW FULLTEXT INDEXES YIELD name, labelsOrTypes, properties
WHERE name IN $names
RETURN name, labelsOrTypes AS labels, properties
