// Browser guide: a premise walk drawn as a path. The claim $claim (or, by default, the claim with
// the longest DERIVED_FROM chain) and every premise it rests on, up to 10 deep; a premise out of
// date now is drawn beside what made it so: the later value of its subject and predicate (the
// premise walk's supersession rule, simplified here to any later live value with another object)
// or the claim that SUPERSEDES it. claims_superseded.cypher is the exact rule (GET /v1/claims/{id}/status).
// Parameters: $workspace, $claim (claim id, or null: the claim with the deepest premises)
// Returns: one row per premise: path (the DERIVED_FROM path to it), depth, premise
//          ("subject · predicate · object"), stale ('retracted' | 'expired' | 'superseded' | null),
//          newer (the superseding claims), shown (SUPERSEDES relationships and shared subject entity, for drawing)
CALL () {
  MATCH (c:Claim {workspace: $workspace}) WHERE c.id = $claim RETURN c
  UNION
  MATCH p = (c:Claim {workspace: $workspace})-[:DERIVED_FROM*1..10]->(:Claim) WHERE $claim IS NULL
  RETURN c ORDER BY length(p) DESC, c.id LIMIT 1
}
MATCH path = (c)-[:DERIVED_FROM*0..10]->(premise:Claim)
WITH premise, min(length(path)) AS depth, head(collect(path)) AS path
OPTIONAL MATCH (premise)-[shared:SUBJECT]->(e:Entity)<-[later:SUBJECT]-(newer:Claim)
  WHERE newer.predicate = premise.predicate AND newer.object <> premise.object
    AND newer.txTo IS NULL AND newer.validFrom > coalesce(premise.validFrom, datetime('0001-01-01T00:00:00Z'))
OPTIONAL MATCH (premise)<-[supersedes:SUPERSEDES]-(replacing:Claim) WHERE replacing.txTo IS NULL
WITH path, depth, premise, collect(DISTINCT newer) + collect(DISTINCT replacing) AS newer,
     collect(DISTINCT e) + collect(DISTINCT shared) + collect(DISTINCT later) + collect(DISTINCT supersedes) AS shown
RETURN path, depth, premise.subject + ' · ' + premise.predicate + ' · ' + premise.object AS premise,
       CASE
         WHEN premise.txTo IS NOT NULL THEN 'retracted'
         WHEN premise.validTo IS NOT NULL AND premise.validTo <= datetime() THEN 'expired'
         WHEN size(newer) > 0 THEN 'superseded'
       END AS stale,
       newer, shown
ORDER BY depth
