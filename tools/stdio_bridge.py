"""The stdio bridge's first address, kept so that client configs written before it moved still start:
`python -m stacgis_agent.tools.stdio_bridge …` runs `tools/outside/stdio_bridge.py` (new configs name that)."""

import sys

from .outside.stdio_bridge import main

if __name__ == "__main__":
    sys.exit(main())
