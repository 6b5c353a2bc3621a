"""qgis.PyQt as in QGIS 4: the PyQt6 modules, unchanged."""
