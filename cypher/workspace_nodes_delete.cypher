// Physically deletes a batch of a workspace's nodes (from workspace_nodes, or those an import
// wrote before it failed) with their relationships; their vector and full-text index entries
// go with them. A node not of the workspace is left alone.
// Parameters: $workspace, $element_ids (list of element ids)
// Returns: deleted (count)
UNWIND $element_ids AS doomed
MATCH (n) WHERE elementId(n) = doomed
  AND (n.workspace = $workspace OR (n:Workspace AND n.name = $workspace))
DETACH DELETE n
RETURN count(*) AS deleted
