// Recall reads whom a question's names address: people in a chat call each other by names other
// than the labels their messages carry ("hey Kate!" to the speaker labelled Emi), and a question
// asks after the person by the name they were called. For each capitalised name of the question, the
// turns whose text holds it (Lucene, at most $addressed_candidates a name, in the time scope), each
// with the other person of its session (its speakers read once a session); a session of more than
// two people is left out, as its addressee could be anyone. Python (app/recall/addressed.py) keeps
// the turns that say the name in address, and counts them.
// Parameters: $workspace, $addressed_names (list of names, letters only), $addressed_candidates (integer),
//             $valid_at, $known_at (datetimes)
// Returns: one row, rows: a list of {name, speaker, addressee, text}
UNWIND $addressed_names AS name
CALL (name) {
  CALL db.index.fulltext.queryNodes('recall_search', '+workspace:"' + $workspace + '"^0 +text:' + toLower(name),
    {limit: $addressed_candidates}) YIELD node
  WITH node
  WHERE node:Turn AND node.workspace = $workspace AND node.txFrom <= $known_at
    AND (node.txTo IS NULL OR node.txTo > $known_at) AND (node.occurredAt IS NULL OR node.occurredAt <= $valid_at)
    AND node.text CONTAINS name  // written as a name, capitalised
  MATCH (session:Session)-[:HAS_TURN]->(node)
  WITH session, collect(node) AS hits
  WITH hits, COLLECT {
    MATCH (session)-[:HAS_TURN]->(other:Turn)
    WHERE other.txFrom <= $known_at AND (other.txTo IS NULL OR other.txTo > $known_at) RETURN DISTINCT other.speaker
  } AS speakers
  WHERE size(speakers) = 2
  UNWIND hits AS node
  RETURN collect({name: name, speaker: node.speaker, addressee: [s IN speakers WHERE s <> node.speaker][0],
                  text: node.text}) AS found
}
WITH found
UNWIND found AS row
RETURN collect(row) AS rows
