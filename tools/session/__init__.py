"""What a session offers besides analyses: memory, knowledge, the tool list, MCP resources and prompts, reports.
May import the face, `stac/` and `analysis/`."""
