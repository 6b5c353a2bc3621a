"""QGIS-facing glue that is not a widget: settings storage (QgsSettings and the auth database), the canvas
as map context, the asyncio bridge, the message log, the requirements bootstrap, the locator filter. (Where the plugin lives is `agent.paths`.)
The runtime that wires the pieces together is `plugin/runtime.py`.

Importing this package must not import qgis or anything from requirements.txt: `host.requirements`
runs before the requirements are installed.
"""
