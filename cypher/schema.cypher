// donto's schema: constraints and indexes, applied idempotently on start (`donto schema apply`).
// schema-version: 10
// Every statement is IF [NOT] EXISTS or MERGE, so applying twice changes nothing.
// Version 2 added the session and speaker-aware full-text indexes: a graph written under version 1
// gets the texts they read from `donto reembed`. Version 3 added the job queue (:Job, :JobPass);
// version 4 key lifecycle and use (:ApiKey ids, :KeyUsage), purge records and workspace indexes
// for export and purge (additions only: a version 3 graph needs nothing but this file). Version 5
// the agent's curated memory: understandings, perspectives and their vectors, memory sessions,
// utility signals, events (additions only). Version 6 gives understandings their own relationship
// to their subjects, (:Understanding)-[:UNDERSTANDS]->(:Subject), instead of the ABOUT they shared
// with observations (so reading a subject's observations no longer walks its understandings, nor the
// other way round); applying it moves a version 5 graph's edges over, in batches
// (schema_understands_migrate, run by GraphClient.apply_schema until none is left). Version 7 (Neo4j
// 2026.x) makes every vector index with its nodes' workspace as a filter property (`WITH [n.workspace]`,
// Cypher 25), so a search is filtered by workspace inside the index (the SEARCH clause) instead of
// over-fetching from all workspaces; GraphClient.apply_schema drops the version 6 indexes, made without
// it (IF NOT EXISTS would keep them as they are), and these statements make them again: the vectors stay
// on the nodes and the index repopulates from them. Version 8 adds the nodes' `workspace` to every
// full-text index, and every full-text query requires it (`+workspace:"…"^0`), so Lucene ranks one
// workspace's documents instead of the top few of all workspaces, which the workspace filter after it
// could leave empty; apply_schema drops the version 7 full-text indexes and these statements make them
// again from the nodes' text.
// Version 9 indexes a claim's text for recall by the label :Searchable, which the claim embedder gives a claim
// with its first embedding (claims_set_embedding), instead of by :Claim: Lucene's work on a claim moves off
// the write's commit into the background embedder, as its vector already was (a batch of 1,000 claims wrote
// in 258 ms instead of 319, in process on one store, batches interleaved). apply_schema drops a
// version 8 recall_search and labels every claim it held :Searchable first (schema_searchable_migrate).
// Version 10 makes registered documents recallable with no LLM: each revision is cut into sentence
// passages, (:Document)-[:HAS_PASSAGE]->(:Passage {documentId, seq, start, end, ...})-[:NEXT]->(:Passage),
// in the passage indexes turns' passages are in, and a document's whole text gets a full-text index of
// its own (document_text). Revisions and their passages carry transaction time (txFrom, txTo: a later
// revision replaces them). Memory.apply_schema gives documents registered before it their passages
// (DocumentService.backfill_passages); the embedder then embeds them. Predicates record who declared
// their cardinality (declaredBy: 'user' | 'model' | 'default'; see app/predicates).

// Claims: reified statements with valid time (validFrom/validTo) and transaction time (txFrom/txTo).
// Between claims: DERIVED_FROM, SUPPORTS, CONTRADICTS, SUPERSEDES (a later value replaces this one in
// the world) and CORRECTS (this claim is a corrected version of that one, which donto then believed no
// longer: its txTo is the correction's txFrom, retractionReason 'corrected by <id>'). Relationships need
// no index: every read reaches them from a claim found by its own.
CREATE CONSTRAINT claim_id IF NOT EXISTS FOR (c:Claim) REQUIRE c.id IS UNIQUE;
CREATE INDEX claim_content_key IF NOT EXISTS FOR (c:Claim) ON (c.workspace, c.contentKey);
CREATE INDEX claim_subject_predicate IF NOT EXISTS FOR (c:Claim) ON (c.workspace, c.subject, c.predicate);
// A workspace's claims as a whole (graph exports, the Browser guide's slides).
CREATE INDEX claim_workspace IF NOT EXISTS FOR (c:Claim) ON (c.workspace);
CREATE INDEX claim_predicate IF NOT EXISTS FOR (c:Claim) ON (c.workspace, c.predicate);
CREATE INDEX claim_object IF NOT EXISTS FOR (c:Claim) ON (c.workspace, c.object);
CREATE INDEX claim_workspace_id IF NOT EXISTS FOR (c:Claim) ON (c.workspace, c.id);

// Entities: subjects and entity objects of claims, one node per key and workspace.
CREATE CONSTRAINT entity_key IF NOT EXISTS FOR (e:Entity) REQUIRE (e.workspace, e.key) IS UNIQUE;
// Entity identity (app/identity, additions only): keys that denote the same thing are linked,
// (:Entity)-[:SAME_AS {id, reason, method, score, txFrom, txTo, recordedBy}]->(:Entity), never
// merged; a link is found by its id, and an entity by its fold (its key without accents or
// punctuation), which extraction compares to propose links.
CREATE INDEX same_as_id IF NOT EXISTS FOR ()-[r:SAME_AS]-() ON (r.id);
CREATE INDEX entity_fold IF NOT EXISTS FOR (e:Entity) ON (e.workspace, e.fold);

// The predicate registry (cardinality 'one' | 'many', aliases).
CREATE CONSTRAINT predicate_name IF NOT EXISTS FOR (p:Predicate) REQUIRE (p.workspace, p.name) IS UNIQUE;
CREATE INDEX predicate_workspace IF NOT EXISTS FOR (p:Predicate) ON (p.workspace);
// Extraction's proposals that a new predicate is an alias of a registered one (schema version 10):
// (:AliasProposal {id, alias, predicate, similarity, state: 'proposed'|'accepted'|'rejected'})-[:ALIAS_OF]->(:Predicate)
CREATE CONSTRAINT alias_proposal_id IF NOT EXISTS FOR (a:AliasProposal) REQUIRE a.id IS UNIQUE;
CREATE CONSTRAINT alias_proposal_pair IF NOT EXISTS FOR (a:AliasProposal) REQUIRE (a.workspace, a.predicate, a.alias) IS UNIQUE;

// Registered source text, one node per revision, and the character spans claims cite.
CREATE CONSTRAINT document_id IF NOT EXISTS FOR (d:Document) REQUIRE d.id IS UNIQUE;
CREATE INDEX document_external_id IF NOT EXISTS FOR (d:Document) ON (d.workspace, d.externalId);
CREATE INDEX document_sha256 IF NOT EXISTS FOR (d:Document) ON (d.workspace, d.sha256);
CREATE CONSTRAINT span_id IF NOT EXISTS FOR (s:Span) REQUIRE s.id IS UNIQUE;

// API keys bound to a workspace, stored as sha256 of the key.
CREATE CONSTRAINT api_key_hash IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.keyHash IS UNIQUE;
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.id IS UNIQUE;
CREATE INDEX api_key_created IF NOT EXISTS FOR (k:ApiKey) ON (k.createdAt);
// Key use per key, workspace and UTC day (requests, rejected, lastUsedAt), written in batches.
CREATE CONSTRAINT key_usage_day IF NOT EXISTS FOR (u:KeyUsage) REQUIRE (u.keyId, u.workspace, u.day) IS UNIQUE;
CREATE INDEX key_usage_key IF NOT EXISTS FOR (u:KeyUsage) ON (u.keyId);

// The transaction-time clocks: one node per workspace, locked by every write of that workspace
// (see transaction_time_next.cypher). The named one ('donto', the single clock of graphs written
// before) only seeds a workspace clock that is new on an old graph, so times never go backwards.
CREATE CONSTRAINT transaction_clock_name IF NOT EXISTS FOR (t:TransactionClock) REQUIRE t.name IS UNIQUE;
MERGE (:TransactionClock {name: 'donto'});
// Added with the per-workspace clocks: one clock per workspace, so concurrent MERGEs make one node.
CREATE CONSTRAINT transaction_clock_workspace IF NOT EXISTS FOR (t:TransactionClock) REQUIRE t.workspace IS UNIQUE;

CREATE CONSTRAINT schema_name IF NOT EXISTS FOR (s:DontoSchema) REQUIRE s.name IS UNIQUE;

// Episodes: sessions of turns (NEXT in order), each turn split into sentence passages. Between turns
// of a session, (later:Turn)-[:CORRECTS {txFrom, value, replaced}]->(earlier:Turn): the later turn,
// by the same speaker, corrects what the earlier said ("sorry, it was July, not August";
// app/episodes/corrections.py), as known from txFrom while the later turn is live. Reached from the
// turns, as claims' relationships are: no index.
CREATE CONSTRAINT session_id IF NOT EXISTS FOR (s:Session) REQUIRE s.id IS UNIQUE;
CREATE CONSTRAINT session_key IF NOT EXISTS FOR (s:Session) REQUIRE (s.workspace, s.externalId) IS UNIQUE;
CREATE CONSTRAINT turn_id IF NOT EXISTS FOR (t:Turn) REQUIRE t.id IS UNIQUE;
CREATE CONSTRAINT turn_key IF NOT EXISTS FOR (t:Turn) REQUIRE (t.workspace, t.sessionExternalId, t.externalId) IS UNIQUE;
CREATE CONSTRAINT passage_id IF NOT EXISTS FOR (p:Passage) REQUIRE p.id IS UNIQUE;
CREATE INDEX turn_occurred_at IF NOT EXISTS FOR (t:Turn) ON (t.workspace, t.occurredAt);
CREATE INDEX passage_date IF NOT EXISTS FOR (p:Passage) ON (p.workspace, p.dateFrom);
// A document's passages are dated by the document (occurredAt): the time-window arm finds them by it.
CREATE INDEX document_occurred_at IF NOT EXISTS FOR (d:Document) ON (d.workspace, d.occurredAt);

// Recall: cosine vector indexes (dimension of the embedding model: run with
// `:param embedding_dimensions => 384` for all-MiniLM-L6-v2) and two full-text indexes, whose
// English analyzer stems words ("painted" finds "painting") and drops stop words.
// Quantisation off: these indexes are small, and exact vectors keep recall stable. Each vector index
// carries its nodes' workspace (`WITH [...]`, Cypher 25), so recall searches one workspace's vectors.
CYPHER 25 CREATE VECTOR INDEX turn_embedding IF NOT EXISTS FOR (t:Turn) ON t.embedding WITH [t.workspace]
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine',
                         `vector.quantization.enabled`: false}};
CYPHER 25 CREATE VECTOR INDEX turn_context_embedding IF NOT EXISTS FOR (t:Turn) ON t.contextEmbedding WITH [t.workspace]
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine',
                         `vector.quantization.enabled`: false}};
CYPHER 25 CREATE VECTOR INDEX passage_embedding IF NOT EXISTS FOR (p:Passage) ON p.embedding WITH [p.workspace]
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine',
                         `vector.quantization.enabled`: false}};
// A registered document's passage in its context (the passage before it and itself; schema version 10).
CYPHER 25 CREATE VECTOR INDEX passage_context_embedding IF NOT EXISTS FOR (p:Passage) ON p.contextEmbedding WITH [p.workspace]
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine',
                         `vector.quantization.enabled`: false}};
CYPHER 25 CREATE VECTOR INDEX claim_embedding IF NOT EXISTS FOR (c:Claim) ON c.embedding WITH [c.workspace]
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine',
                         `vector.quantization.enabled`: false}};
// Turns and passages are searched with their speaker, as claims are with their subject: a
// question names the person ("What does Melanie paint?"), the words she says rarely do.
// (recall_text, its predecessor, indexed the text alone.)
DROP INDEX recall_text IF EXISTS;
// A claim joins when the embedder has embedded it (:Searchable, schema version 9), off the write path;
// recall embeds its own workspace's waiting claims before it searches, so it still reads its own writes.
CREATE FULLTEXT INDEX recall_search IF NOT EXISTS FOR (n:Turn|Passage|Searchable) ON EACH [n.text, n.speaker, n.workspace]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
// A session's whole text, so that words of a question spread over several turns of one
// conversation rank that conversation (BM25 over the session as one document).
CREATE FULLTEXT INDEX session_text IF NOT EXISTS FOR (s:Session) ON EACH [s.text, s.workspace]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};

// A registered document's whole text (its title too), so that the words of a question spread over
// several passages of one document rank that document (schema version 10; as session_text does for
// a conversation). A revision a later one replaced stays in the index; reads filter it by txTo.
CREATE FULLTEXT INDEX document_text IF NOT EXISTS FOR (d:Document) ON EACH [d.text, d.title, d.workspace]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};

// Workspaces that set anything: one node each, keyed by name.
CREATE CONSTRAINT workspace_name IF NOT EXISTS FOR (w:Workspace) REQUIRE w.name IS UNIQUE;

// Jobs: durable background work (extraction), one node per job, claimed by workers under a lease.
// state: queued | running | succeeded | failed | cancelled. Each pass of an extraction job is a
// (:JobPass) with its yields and raw replies: (:Job)-[:HAS_PASS]->(:JobPass), and the claims it
// wrote or found again: (:Job)-[:EXTRACTED]->(:Claim). Every fact the model stated, in order, is a
// (:JobFact {id: jobId:seq, seq, pass, lens, outcome, ...}): (:Job)-[:STATED]->(:JobFact)-[:BECAME]->(:Claim)
// for one that is a claim (created, existing, corroborated, repeated), none for a rejected one
// (added after version 10 without a new version: a constraint and an index, nothing to migrate).
CREATE CONSTRAINT job_id IF NOT EXISTS FOR (j:Job) REQUIRE j.id IS UNIQUE;
CREATE CONSTRAINT job_fact_id IF NOT EXISTS FOR (f:JobFact) REQUIRE f.id IS UNIQUE;
CREATE INDEX job_state_created IF NOT EXISTS FOR (j:Job) ON (j.state, j.createdAt);
CREATE INDEX job_workspace_created IF NOT EXISTS FOR (j:Job) ON (j.workspace, j.createdAt);
// One (:JobLane) per workspace with queued work: how many of its jobs wait, and when a worker last
// started one, so workers serve workspaces in turn and one tenant's burst cannot starve another.
CREATE CONSTRAINT job_lane_workspace IF NOT EXISTS FOR (l:JobLane) REQUIRE l.workspace IS UNIQUE;
CREATE INDEX job_lane_queued IF NOT EXISTS FOR (l:JobLane) ON (l.queued);

// Backup and erasure (app/workspaces): every label of a workspace is found from an index, so an
// export or a purge never scans the store; spans, passages and job passes get theirs here. One
// (:Purge) audit record per purge: what was removed, counted, never the removed content.
CREATE INDEX span_workspace IF NOT EXISTS FOR (s:Span) ON (s.workspace);
CREATE INDEX passage_workspace IF NOT EXISTS FOR (p:Passage) ON (p.workspace);
CREATE INDEX job_pass_workspace IF NOT EXISTS FOR (p:JobPass) ON (p.workspace);
CREATE INDEX job_fact_workspace IF NOT EXISTS FOR (f:JobFact) ON (f.workspace);
CREATE CONSTRAINT purge_id IF NOT EXISTS FOR (p:Purge) REQUIRE p.id IS UNIQUE;

// Subjects (app/subjects): named anchors a workspace stipulates, and append-only observations
// tagged to any of them: (:Observation)-[:ABOUT]->(:Subject). Subjects relate through the
// observations they share (their intersection), read in Cypher and never stored as an edge.
CREATE CONSTRAINT subject_id IF NOT EXISTS FOR (s:Subject) REQUIRE s.id IS UNIQUE;
CREATE CONSTRAINT subject_name IF NOT EXISTS FOR (s:Subject) REQUIRE (s.workspace, s.name) IS UNIQUE;
CREATE INDEX subject_workspace IF NOT EXISTS FOR (s:Subject) ON (s.workspace);
CREATE CONSTRAINT observation_id IF NOT EXISTS FOR (o:Observation) REQUIRE o.id IS UNIQUE;
CREATE CONSTRAINT observation_hash IF NOT EXISTS FOR (o:Observation) REQUIRE (o.workspace, o.contentHash) IS UNIQUE;
CREATE INDEX observation_workspace IF NOT EXISTS FOR (o:Observation) ON (o.workspace);
CREATE INDEX observation_generation IF NOT EXISTS FOR (o:Observation) ON (o.workspace, o.generation);
CREATE INDEX observation_session IF NOT EXISTS FOR (o:Observation) ON (o.workspace, o.sessionId);
// A subject merged into another keeps its node (relabelled (:MergedSubject)) so the merge can be undone.
CREATE INDEX merged_subject_workspace IF NOT EXISTS FOR (s:MergedSubject) ON (s.workspace);
// It keeps its id too, which an import checks is free (ids_taken).
CREATE INDEX merged_subject_id IF NOT EXISTS FOR (s:MergedSubject) ON (s.id);
// Understandings: consolidated, revisable views of subjects, (:Understanding)-[:UNDERSTANDS]->(:Subject)
// (a type of its own: see version 6 above); a revision is a new node and a
// SUPERSEDED_BY edge, so (:Understanding) WHERE NOT (u)-[:SUPERSEDED_BY]->() is the active surface.
CREATE CONSTRAINT understanding_id IF NOT EXISTS FOR (u:Understanding) REQUIRE u.id IS UNIQUE;
CREATE INDEX understanding_workspace_kind IF NOT EXISTS FOR (u:Understanding) ON (u.workspace, u.kind);
// Perspectives: named instruction prefixes; every observation, understanding and subject summary
// is embedded once per perspective of its workspace: (:PerspectiveVector)-[:EMBEDS]->(target).
// Their vector index filters by workspace and by the model that made the vector.
CREATE CONSTRAINT perspective_name IF NOT EXISTS FOR (p:Perspective) REQUIRE (p.workspace, p.name) IS UNIQUE;
CREATE INDEX perspective_vector_target IF NOT EXISTS FOR (v:PerspectiveVector) ON (v.targetId);
CREATE INDEX perspective_vector_workspace IF NOT EXISTS FOR (v:PerspectiveVector) ON (v.workspace);
CYPHER 25 CREATE VECTOR INDEX perspective_embedding IF NOT EXISTS FOR (v:PerspectiveVector) ON v.embedding WITH [v.workspace, v.model]
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine',
                         `vector.quantization.enabled`: false}};
CYPHER 25 CREATE VECTOR INDEX subject_embedding IF NOT EXISTS FOR (s:Subject) ON s.embedding WITH [s.workspace]
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine',
                         `vector.quantization.enabled`: false}};
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (n:Observation|Understanding) ON EACH [n.text, n.summary, n.workspace]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
// Memory sessions (the client's session_id): heartbeat token, last bring_to_mind, and what was
// surfaced in them: (:MemorySession)-[:SURFACED]->(:Observation|:Understanding).
CREATE CONSTRAINT memory_session_key IF NOT EXISTS FOR (s:MemorySession) REQUIRE (s.workspace, s.id) IS UNIQUE;
CREATE CONSTRAINT utility_signal_id IF NOT EXISTS FOR (s:UtilitySignal) REQUIRE s.id IS UNIQUE;
CREATE INDEX utility_signal_workspace IF NOT EXISTS FOR (s:UtilitySignal) ON (s.workspace, s.signal);
CREATE CONSTRAINT memory_event_id IF NOT EXISTS FOR (e:MemoryEvent) REQUIRE e.id IS UNIQUE;
CREATE INDEX memory_event_workspace IF NOT EXISTS FOR (e:MemoryEvent) ON (e.workspace, e.at);
CREATE INDEX perspective_workspace IF NOT EXISTS FOR (p:Perspective) ON (p.workspace);

// Nothing here waits for the indexes to come online: GraphClient.apply_schema waits a little (a new
// store's are online at once) and lets the API start while a large graph's rebuilt indexes populate.
