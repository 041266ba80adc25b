// The document revisions of a workspace for `donto export --format graphml|json|csv`, beside its
// claims: each revision's fields (no text), and the claims whose evidence cites it. With $known_at,
// only the revisions donto knew then (txFrom <= $known_at < txTo); with $valid_at, only those valid then
// (of a document's versions, the one in force: from validFrom, before versions its occurredAt, until
// the validTo a later version gave it where that is known at $known_at, or known at all without one).
// With both null: every revision, replaced and retracted ones included.
// Parameters: $workspace, $valid_at, $known_at (datetimes, each null = no bound on that axis)
// Returns: one row per revision, ordered by id: document (map of its fields; not its text),
//          cited_by (list of claim ids whose evidence spans lie in it)
MATCH (d:Document)
WHERE d.workspace = $workspace AND d.sha256 IS NOT NULL
  AND ($known_at IS NULL OR (d.txFrom <= $known_at AND (d.txTo IS NULL OR d.txTo > $known_at)))
  AND ($valid_at IS NULL OR (coalesce(d.validFrom, d.occurredAt, $valid_at) <= $valid_at
       AND (d.validTo IS NULL OR d.validTo > $valid_at OR d.validToRecordedAt > coalesce($known_at, d.validToRecordedAt))))
RETURN d {.*, text: null, validTo: CASE WHEN $known_at IS NULL OR d.validToRecordedAt <= $known_at THEN d.validTo END,
          validToRecordedAt: null, length: size(d.text)} AS document,
       [(c:Claim)-[:EVIDENCED_BY]->(:Span)-[:IN]->(d) WHERE c.workspace = $workspace | c.id] AS cited_by
ORDER BY d.id
