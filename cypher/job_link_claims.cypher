// Links a job to the claims it wrote or found again, with how it found each: the pass and lens,
// the modality, whether it is only a hypothesis, whether its quote was anchored, and whether it
// restated the claim in other words (corroborates, with the triple as the model stated it).
// Parameters: $id (the job), $workspace, $links (list of {claimId, pass, modality, hypothesisOnly,
//             anchored, created, corroborates, asStated})
// Returns: linked (count)
MATCH (j:Job {id: $id})
UNWIND $links AS link
MATCH (c:Claim {id: link.claimId}) WHERE c.workspace = $workspace
MERGE (j)-[e:EXTRACTED]->(c)
SET e.pass = link.pass, e.modality = link.modality, e.hypothesisOnly = link.hypothesisOnly,
    e.anchored = link.anchored, e.created = link.created, e.corroborates = link.corroborates,
    e.asStated = link.asStated
RETURN count(e) AS linked
