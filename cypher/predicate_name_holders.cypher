// Which other predicates of a workspace already answer to any of the given names, as their name or
// as one of their aliases: a name or alias denotes one predicate of a workspace, so supersession and
// extraction's alias-to-name mapping never depend on which of two matches is read first. Names are
// compared exactly (claims match predicates exactly, letter case included).
// Parameters: $workspace, $name (the predicate being declared: left out), $names (list of strings)
// Returns: taken (one of $names), holder (the predicate that answers to it), as_name (true: it is the
//          holder's name; false: one of its aliases)
UNWIND $names AS taken
MATCH (p:Predicate)
WHERE p.workspace = $workspace AND p.name <> $name AND (p.name = taken OR taken IN coalesce(p.aliases, []))
RETURN taken, p.name AS holder, p.name = taken AS as_name
ORDER BY holder
