"""Real servers on loopback for the tests: STAC API, COGs, Redis, PostgreSQL, S3, attackers, MCP calls."""
