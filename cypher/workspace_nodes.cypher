// Every node that holds a workspace's data, light (no properties but the ones that name it): its
// settings, predicates and alias proposals for them, entities, documents and the spans cut from them, sessions, turns and
// passages, claims, jobs, their passes, stated facts and lane, subjects (merged ones too), observations and the
// agent memory around them: understandings, perspectives and their vectors, memory sessions,
// utility signals and events. Each label is found from an index. The order is the order a purge
// deletes in (the nodes other nodes hang from last), so a purge that asks for the first $limit
// again after each batch never revisits what it already removed.
// Not here, on purpose: API keys and their use counts (access, not memory) and (:Purge) records.
// Parameters: $workspace, $limit (integer: how many at most)
// Returns: elementId, label (the node's donto label), key (map: id, key, name, jobId, attempt, seq,
//          targetId, perspective: what names the node in an export; absent ones null)
CALL () {
  MATCH (n:MemoryEvent) WHERE n.workspace = $workspace AND n.at IS NOT NULL RETURN n, 'MemoryEvent' AS label
  UNION ALL
  MATCH (n:UtilitySignal) WHERE n.workspace = $workspace AND n.signal IS NOT NULL RETURN n, 'UtilitySignal' AS label
  UNION ALL
  MATCH (n:MemorySession) WHERE n.workspace = $workspace AND n.id IS NOT NULL RETURN n, 'MemorySession' AS label
  UNION ALL
  MATCH (n:PerspectiveVector) WHERE n.workspace = $workspace RETURN n, 'PerspectiveVector' AS label
  UNION ALL
  MATCH (n:Perspective) WHERE n.workspace = $workspace RETURN n, 'Perspective' AS label
  UNION ALL
  MATCH (n:Understanding) WHERE n.workspace = $workspace AND n.kind IS NOT NULL RETURN n, 'Understanding' AS label
  UNION ALL
  MATCH (n:Observation) WHERE n.workspace = $workspace RETURN n, 'Observation' AS label
  UNION ALL
  MATCH (n:MergedSubject) WHERE n.workspace = $workspace RETURN n, 'MergedSubject' AS label
  UNION ALL
  MATCH (n:Subject) WHERE n.workspace = $workspace RETURN n, 'Subject' AS label
  UNION ALL
  MATCH (n:JobFact) WHERE n.workspace = $workspace RETURN n, 'JobFact' AS label
  UNION ALL
  MATCH (n:JobPass) WHERE n.workspace = $workspace RETURN n, 'JobPass' AS label
  UNION ALL
  MATCH (n:Job) WHERE n.workspace = $workspace AND n.createdAt IS NOT NULL RETURN n, 'Job' AS label
  UNION ALL
  MATCH (n:JobLane {workspace: $workspace}) RETURN n, 'JobLane' AS label
  UNION ALL
  MATCH (n:Span) WHERE n.workspace = $workspace RETURN n, 'Span' AS label
  UNION ALL
  MATCH (n:Claim) WHERE n.workspace = $workspace AND n.id IS NOT NULL RETURN n, 'Claim' AS label
  UNION ALL
  MATCH (n:Passage) WHERE n.workspace = $workspace RETURN n, 'Passage' AS label
  UNION ALL
  MATCH (n:Turn) WHERE n.workspace = $workspace AND n.sessionExternalId IS NOT NULL AND n.externalId IS NOT NULL
  RETURN n, 'Turn' AS label
  UNION ALL
  MATCH (n:Session) WHERE n.workspace = $workspace AND n.externalId IS NOT NULL RETURN n, 'Session' AS label
  UNION ALL
  MATCH (n:Document) WHERE n.workspace = $workspace AND n.sha256 IS NOT NULL RETURN n, 'Document' AS label
  UNION ALL
  MATCH (n:Entity) WHERE n.workspace = $workspace AND n.key IS NOT NULL RETURN n, 'Entity' AS label
  UNION ALL
  MATCH (n:AliasProposal) WHERE n.workspace = $workspace AND n.predicate IS NOT NULL AND n.alias IS NOT NULL
  RETURN n, 'AliasProposal' AS label
  UNION ALL
  MATCH (n:Predicate) WHERE n.workspace = $workspace RETURN n, 'Predicate' AS label
  UNION ALL
  MATCH (n:Workspace {name: $workspace}) RETURN n, 'Workspace' AS label
}
WITH n, label LIMIT $limit
RETURN elementId(n) AS elementId, label, n {.id, .key, .name, .jobId, .attempt, .seq, .targetId, .perspective} AS key
