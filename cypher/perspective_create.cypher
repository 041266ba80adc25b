// Adds a custom perspective to a workspace (`created` false: one by that name exists). Items written
// from now on are embedded from it too; `donto reembed` embeds the older ones.
// Parameters: $workspace, $name, $instruction, $now (the write's transaction time: unique)
// Returns: name, instruction, isDefault, created
MERGE (p:Perspective {workspace: $workspace, name: $name})
  ON CREATE SET p.instruction = $instruction, p.isDefault = false, p.createdAt = $now
RETURN p.name AS name, p.instruction AS instruction, p.isDefault AS isDefault, p.createdAt = $now AS created
