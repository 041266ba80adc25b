// Which of these claim ids exist in the workspace (retracted ones included)?
// Parameters: $workspace, $ids (list of claim ids)
// Returns: id, one row per existing claim
UNWIND $ids AS claimId
MATCH (c:Claim {id: claimId})
WHERE c.workspace = $workspace
RETURN c.id AS id
