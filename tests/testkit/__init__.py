"""Test support: the Ollama emulator and helpers that start real servers on loopback."""
