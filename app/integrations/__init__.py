"""Agent frameworks' memory interfaces over donto: each adapter is a shell over donto's client
(donto.Client, donto.AsyncClient) alone, so it works against any donto server, local or remote.

- donto.integrations.langgraph: DontoStore, LangGraph's long-term memory `BaseStore` (the
  `langgraph` extra: `pip install "donto-memory[langgraph]"`); store_mapping.py holds its pure mapping.
- donto.integrations.openai_agents: DontoSession, the OpenAI Agents SDK's `Session` (the
  `openai-agents` extra: `pip install "donto-memory[openai-agents]"`); response_items.py holds its pure mapping.
- donto.integrations.adk: DontoMemoryService, Google ADK's `BaseMemoryService` (the `adk` extra:
  `pip install "donto-memory[adk]"`); adk_events.py holds its pure mapping.
- donto.integrations.anthropic: DontoMemoryTool and DontoAsyncMemoryTool, a backend for Claude's memory
  tool (the Anthropic SDK's `BetaAbstractMemoryTool`; the `anthropic` extra: `pip install
  "donto-memory[anthropic]"`); memory_files.py holds its pure path checks and commands.
- client_steps.py: an operation written once as the client calls it makes, run by either client.
- donto.integrations.crewai: DontoMemory, CrewAI's `Memory` (the `crewai` extra:
  `pip install "donto-memory[crewai]"`); crewai_records.py holds its pure mapping.
- donto.integrations.langchain, donto.integrations.llama_index: DontoRetriever, each framework's
  `BaseRetriever` over recall (the `langchain` and `llama-index` extras); recall_items.py maps an item,
  recall_clients.py makes the clients.
"""
