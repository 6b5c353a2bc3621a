"""Stand-ins for the model: the Ollama emulator and its parts, the real llama.cpp server, the agent harness."""
