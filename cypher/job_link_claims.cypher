// Links a job to the claims it wrote or found again, with how it found each: the pass and lens,
// the modality, whether it is only a hypothesis, whether its quote was anchored, and whether it
// restated the claim in other words (corroborates, with the triple as the model stated it), the
// claim it wrote as another's new version (corrects: that claim's id), and the
// times the model stated for it (validFromAsStated, validToAsStated) with those donto could not
// resolve (datesUnresolved: the claim's valid time is left open there).
// Parameters: $id (the job), $workspace, $links (list of {claimId, pass, modality, hypothesisOnly,
//             anchored, created, corroborates, corrects, asStated, validFromAsStated, validToAsStated,
//             datesUnresolved})
// Returns: linked (count)
MATCH (j:Job {id: $id})
UNWIND $links AS link
MATCH (c:Claim {id: link.claimId}) WHERE c.workspace = $workspace
MERGE (j)-[e:EXTRACTED]->(c)
SET e.pass = link.pass, e.modality = link.modality, e.hypothesisOnly = link.hypothesisOnly,
    e.anchored = link.anchored, e.created = link.created, e.corroborates = link.corroborates,
    e.corrects = link.corrects,
    e.asStated = link.asStated, e.validFromAsStated = link.validFromAsStated,
    e.validToAsStated = link.validToAsStated, e.datesUnresolved = link.datesUnresolved
RETURN count(e) AS linked
