// Recall follows identity: the entity keys a question may name (its words and runs of words, as
// keys), those that are entities of the workspace with SAME_AS links known at $known_at, and the
// keys linked to them (either direction, up to three links away). Read in the same statement as the
// arms; where it finds links, recall asks the full-text arm again with the linked keys' words too,
// so "What does Mel like?" finds what was said of "melanie" once mel SAME_AS melanie.
// Parameters: $workspace, $mentions (list of candidate keys), $known_at (datetime)
// Returns: one row, rows: a list of {key, linked (keys linked to it)}
UNWIND $mentions AS mention
MATCH (e:Entity {workspace: $workspace, key: mention})
MATCH (e)(()-[s:SAME_AS WHERE s.txFrom <= $known_at AND (s.txTo IS NULL OR s.txTo > $known_at)]-()){1,3}(other:Entity)
WHERE other <> e
WITH e, collect(DISTINCT other.key) AS linked
RETURN collect({key: e.key, linked: linked}) AS rows
