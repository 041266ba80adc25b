// Which of these ids a node of the store already carries, in any workspace (claim, document,
// span, session, turn, passage, job, subject (merged or not), observation, understanding, utility
// signal and memory event ids are unique across the store). An import keeps the ids it restores,
// so it refuses ids that are taken.
// Parameters: $ids (list of strings)
// Returns: id, label — one row per id taken
UNWIND $ids AS wanted
CALL (wanted) {
  MATCH (n:Claim {id: wanted}) RETURN 'Claim' AS label
  UNION ALL
  MATCH (n:Document {id: wanted}) RETURN 'Document' AS label
  UNION ALL
  MATCH (n:Span {id: wanted}) RETURN 'Span' AS label
  UNION ALL
  MATCH (n:Session {id: wanted}) RETURN 'Session' AS label
  UNION ALL
  MATCH (n:Turn {id: wanted}) RETURN 'Turn' AS label
  UNION ALL
  MATCH (n:Passage {id: wanted}) RETURN 'Passage' AS label
  UNION ALL
  MATCH (n:Job {id: wanted}) RETURN 'Job' AS label
  UNION ALL
  MATCH (n:Subject {id: wanted}) RETURN 'Subject' AS label
  UNION ALL
  MATCH (n:Observation {id: wanted}) RETURN 'Observation' AS label
  UNION ALL
  MATCH (n:MergedSubject {id: wanted}) RETURN 'MergedSubject' AS label
  UNION ALL
  MATCH (n:Understanding {id: wanted}) RETURN 'Understanding' AS label
  UNION ALL
  MATCH (n:UtilitySignal {id: wanted}) RETURN 'UtilitySignal' AS label
  UNION ALL
  MATCH (n:MemoryEvent {id: wanted}) RETURN 'MemoryEvent' AS label
}
RETURN wanted AS id, label
