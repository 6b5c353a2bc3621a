"""Driving QGIS and the dock: hosts, the plugin loader, canvas fixtures, pixels, the console."""
