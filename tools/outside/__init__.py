"""Outside MCP clients: the loopback HTTP endpoint, the stdio bridge, the limit on long calls."""
