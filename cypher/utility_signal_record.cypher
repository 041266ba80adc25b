// Records that an observation or understanding paid rent (useful) or may be wrong (questionable):
// (:UtilitySignal)-[:SIGNALS]->(item). Signals accumulate; none is ever removed.
// Parameters: $workspace, $id (signal id), $target_id, $signal ('useful' | 'questionable'), $reason,
//   $session, $recorded_at (datetime)
// Returns: id, targetId, signal, reason, createdAt, useful, questionable (the item's totals)
MATCH (t:Observation|Understanding {id: $target_id}) WHERE t.workspace = $workspace
CREATE (sig:UtilitySignal {id: $id, workspace: $workspace, targetId: $target_id, signal: $signal, reason: $reason,
                           sessionId: $session, createdAt: $recorded_at})-[:SIGNALS]->(t)
RETURN sig.id AS id, sig.targetId AS targetId, sig.signal AS signal, sig.reason AS reason, sig.createdAt AS createdAt,
       COUNT { (:UtilitySignal {signal: 'useful'})-[:SIGNALS]->(t) } AS useful,
       COUNT { (:UtilitySignal {signal: 'questionable'})-[:SIGNALS]->(t) } AS questionable
