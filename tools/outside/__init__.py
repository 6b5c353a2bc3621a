"""Outside MCP clients: the loopback HTTP endpoint, the stdio bridge, long calls as MCP tasks.
May import everything in `tools/` (it sits on top, above `server`)."""
