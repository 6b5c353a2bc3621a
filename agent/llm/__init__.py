"""LLM providers: Ollama (native API) and OpenAI-compatible servers, behind one protocol."""
