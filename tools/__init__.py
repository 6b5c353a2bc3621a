"""The embedded MCP server and its tool families (see `server.build_server`)."""
