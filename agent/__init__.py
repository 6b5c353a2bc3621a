"""The agent core: ReAct loop, events, memory, LLM providers, stores (no qgis, no Qt)."""
