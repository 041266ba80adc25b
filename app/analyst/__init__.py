"""donto for analysts: a Neo4j Browser guide and style sheet, a Bloom perspective, and exports of a
workspace's claims as a graph (GraphML, node-link JSON, CSV) for work outside Neo4j."""
