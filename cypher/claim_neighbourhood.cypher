// The neighbourhood of a claim, for drawing: the claims linked to it by DERIVED_FROM, SUPPORTS,
// CONTRADICTS or SUPERSEDES (either direction) within $depth hops, each with its subject and
// object entities, its evidence spans and their documents, and its links inside the set.
// Parameters: $workspace, $id, $depth (0..3)
// Returns: one row per claim: claim (map), entities (list of {role, key}),
//          evidence (list of {span, document: a Document or Turn with its kind}), links (list of {type, target} within the set)
MATCH (root:Claim {id: $id})
WHERE root.workspace = $workspace
OPTIONAL MATCH walk = (root)-[:DERIVED_FROM|SUPPORTS|CONTRADICTS|SUPERSEDES]-{1,3}(other:Claim)
WHERE length(walk) <= $depth
WITH root, collect(DISTINCT other) AS others
WITH [root] + others AS claims
UNWIND claims AS claim
RETURN claim {.id, .subject, .predicate, .object, .validFrom, .validTo, .txFrom, .txTo} AS claim,
       [(claim)-[role:SUBJECT|OBJECT]->(e:Entity) | {role: type(role), key: e.key}] AS entities,
       [(claim)-[:EVIDENCED_BY]->(s:Span)-[:IN]->(d:Document|Turn) |
          {span: s {.id, .start, .end, .text},
           document: d {.id, .title, .revision, .speaker, kind: CASE WHEN d:Turn THEN 'Turn' ELSE 'Document' END}}] AS evidence,
       [(claim)-[link:DERIVED_FROM|SUPPORTS|CONTRADICTS|SUPERSEDES]->(t:Claim) WHERE t IN claims |
          {type: type(link), target: t.id}] AS links
