// What replaced each of these claims at $valid_at, as donto knew it at $known_at? The one rule of
// supersession: the claims API, entity profiles, the premise walk and recall all read it here.
// A claim P is superseded by a claim Q known at $known_at and valid at $valid_at when either
//   declared — Q names P in SUPERSEDES; or
//   implied  — P's predicate is single-valued (cardinality 'one' in the registry, by name or by
//              alias), and Q has P's subject, a predicate of that family, another object, the same
//              modality (a context in $modal_contexts, or none: a denial or a guess never replaces a
//              statement, while contexts that only name where a claim belongs do not matter), is no hypothesis, and has a
//              valid time that starts later than P's (or P's has no start).
// A claim whose valid time is unknown (validWhen: words donto could not resolve, such as "as a
// child") takes part by declared links only: a later value neither replaces it nor is replaced by it.
// Parameters: $workspace, $ids (list of claim ids), $valid_at, $known_at (datetimes),
//             $modal_contexts (the contexts that are a modality: negated, possible, ...)
// Returns: id, supersededBy (list of claim ids, declared ones after implied ones) — one row per claim
CALL () {
  OPTIONAL MATCH (decl:Predicate {workspace: $workspace})
  RETURN collect(decl {.name, .aliases, .cardinality}) AS registry
}
UNWIND $ids AS claimId
MATCH (p:Claim {id: claimId})
WHERE p.workspace = $workspace
WITH p, head([d IN registry WHERE d.name = p.predicate] + [d IN registry WHERE p.predicate IN d.aliases]) AS decl
WITH p,
     CASE WHEN decl IS NULL THEN [p.predicate] ELSE [decl.name] + coalesce(decl.aliases, []) END AS family,
     coalesce(decl.cardinality, 'many') AS cardinality
// Only a single-valued predicate has later values: a 'many' one's claims of the same subject (an
// agent's hundreds of "noted" facts about one person) are never read.
CALL (p, family, cardinality) {
  WITH p, family, cardinality WHERE cardinality = 'one' AND p.validWhen IS NULL
  OPTIONAL MATCH (q:Claim {workspace: $workspace, subject: p.subject})
  USING INDEX q:Claim(workspace, subject, predicate)
  WHERE q.predicate IN family
    AND (q.object <> p.object OR q.objectKind <> p.objectKind)
    AND coalesce(CASE WHEN q.context IN $modal_contexts THEN q.context END, '')
      = coalesce(CASE WHEN p.context IN $modal_contexts THEN p.context END, '')
    AND q.hypothesis IS NULL
    AND q.validFrom IS NOT NULL AND (p.validFrom IS NULL OR q.validFrom > p.validFrom)
    AND q.txFrom <= $known_at AND (q.txTo IS NULL OR q.txTo > $known_at)
    AND q.validFrom <= $valid_at AND (q.validTo IS NULL OR q.validTo > $valid_at)
  RETURN collect(q.id) AS newerValues
  UNION
  WITH p, cardinality WHERE cardinality <> 'one' OR p.validWhen IS NOT NULL
  RETURN [] AS newerValues
}
CALL (p) {
  OPTIONAL MATCH (q:Claim)-[:SUPERSEDES]->(p)
  WHERE q.txFrom <= $known_at AND (q.txTo IS NULL OR q.txTo > $known_at)
    AND (q.validFrom IS NULL OR q.validFrom <= $valid_at) AND (q.validTo IS NULL OR q.validTo > $valid_at)
  RETURN collect(q.id) AS namedBy
}
RETURN p.id AS id, newerValues + [id IN namedBy WHERE NOT id IN newerValues] AS supersededBy
