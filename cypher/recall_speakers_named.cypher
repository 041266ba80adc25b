// Which of a question's names are speakers of the workspace: a word of the label some turn (or a
// transcript's passage) carries, recorded by the read's known_at. Recall asks the vector arms without
// them ("What are Paola's hobbies?" is encoded "What are their hobbies?"): every turn of a chat is
// embedded with its speaker's label, so a question that names a speaker comes nearest her emptiest
// turns ("Paola: ?"), while the speakers' step and the coverage by person still read the name.
// At most 50 hits a name are read, so a name whose first hits were all recorded later is not found.
// Parameters: $workspace, $speaker_names (list of names, letters only), $known_at (datetime)
// Returns: one row, speakers: the names of $speaker_names that are a word of some speaker's label
UNWIND $speaker_names AS name
CALL (name) {
  CALL db.index.fulltext.queryNodes('recall_search', '+workspace:"' + $workspace + '"^0 +speaker:' + toLower(name),
    {limit: 50}) YIELD node
  WITH node
  WHERE node.workspace = $workspace AND node.txFrom <= $known_at AND (node.txTo IS NULL OR node.txTo > $known_at)
    AND toLower(node.speaker) CONTAINS toLower(name)  // the analyzer stems; the label holds the name itself
  RETURN node
  LIMIT 1
}
RETURN collect(DISTINCT name) AS speakers
