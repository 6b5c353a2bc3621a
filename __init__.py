"""STAC GIS Agent: QGIS plugin entry point."""


def classFactory(iface):  # noqa: N802 (QGIS calls this name)
    from .plugin import StacGisAgentPlugin

    return StacGisAgentPlugin(iface)
