// Records one pass of an extraction job: its yields, tokens and raw replies. A pass recorded
// again by a retried job replaces nothing: each attempt's passes are kept, numbered by attempt.
// Parameters: $id (the job), $attempt (integer), $pass (map: seq, label, chunk, raw, new,
//             collisions, rejected, attempts, elapsedS, promptTokens, completionTokens,
//             tokensEstimated, truncated, salvaged, error, replies: [string])
// Returns: seq
MATCH (j:Job {id: $id})
CREATE (j)-[:HAS_PASS]->(p:JobPass)
SET p = $pass, p.attempt = $attempt, p.jobId = $id, p.workspace = j.workspace
RETURN p.seq AS seq
