// Links each correcting turn to the earlier turn of its session it corrects,
// (later:Turn)-[:CORRECTS {txFrom, value, replaced}]->(earlier:Turn), in the write transaction of
// episode_write: txFrom is that write's transaction time, so a read as known before it shows no
// correction; the relation holds while the correcting turn is live (reads check it; a retraction of
// the correcting turn ends the correction for reads as known from then on). value: the right value
// the correction names; replaced: the one it takes back (null where it names only the right one).
// Parameters: $workspace, $recorded_at (datetime), $links (list of {later, earlier (turn ids), value, replaced})
// Returns: linked (integer: relations written)
UNWIND $links AS link
MATCH (later:Turn {id: link.later})
WHERE later.workspace = $workspace
MATCH (earlier:Turn {id: link.earlier})
WHERE earlier.workspace = $workspace AND earlier.sessionId = later.sessionId
MERGE (later)-[c:CORRECTS]->(earlier)
  ON CREATE SET c.txFrom = $recorded_at, c.value = link.value, c.replaced = link.replaced
RETURN count(c) AS linked
