// What recall weighs a question about the present with: for candidate turns and document passages,
// who said them (or which document), when, their text and their embedding, so that a later
// statement on the same matter can be told from an earlier one.
// Parameters: $workspace, $ids (turn or passage ids)
// Returns: one row, rows: a list of {id, externalId, speaker, source (session or document id),
//          occurredAt (ISO-8601 text), text, embedding}
CALL () {
  UNWIND $ids AS unitId
  MATCH (t:Turn {id: unitId})
  WHERE t.workspace = $workspace
  RETURN t.id AS id, t.externalId AS externalId, t.speaker AS speaker, t.sessionExternalId AS source,
         toString(t.occurredAt) AS occurredAt, t.text AS text, t.embedding AS embedding
  UNION
  UNWIND $ids AS unitId
  MATCH (p:Passage {id: unitId})
  WHERE p.workspace = $workspace AND p.documentId IS NOT NULL
  RETURN p.id AS id, null AS externalId, p.speaker AS speaker, p.documentId AS source,
         toString(p.occurredAt) AS occurredAt, p.text AS text, p.embedding AS embedding
}
RETURN collect({id: id, externalId: externalId, speaker: speaker, source: source, occurredAt: occurredAt,
                text: text, embedding: embedding}) AS rows
