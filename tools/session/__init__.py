"""What a session offers besides analyses: memory, knowledge, the tool list, MCP resources and prompts, counts."""
