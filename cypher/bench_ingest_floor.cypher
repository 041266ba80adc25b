// Benchmark floor (bench/ingest.py, never donto itself): a batch of claims' fields written as bare
// nodes of an unindexed label by one UNWIND CREATE, beside each REST batch of the same claims:
// what one write transaction of that many nodes costs on this machine at the least.
// Parameters: $rows (list of {subject, predicate, object, validFrom, validTo, confidence})
// Returns: nothing
UNWIND $rows AS row
CREATE (:BenchIngestFloor {subject: row.subject, predicate: row.predicate, object: row.object,
                           validFrom: row.validFrom, validTo: row.validTo, confidence: row.confidence})
