"""Agent frameworks' memory interfaces over donto: each adapter is a shell over donto's client
(donto.AsyncClient) alone, so it works against any donto server, local or remote.

- donto.integrations.openai_agents: DontoSession, the OpenAI Agents SDK's `Session` (the
  `openai-agents` extra: `pip install "donto-memory[openai-agents]"`).
"""
