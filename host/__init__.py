"""QGIS-facing glue that is not a widget: settings storage, the canvas as map context, the
asyncio bridge, the message log, the requirements bootstrap and the runtime that wires them.

Importing this package must not import qgis or anything from requirements.txt: `host.requirements`
runs before the requirements are installed.
"""
