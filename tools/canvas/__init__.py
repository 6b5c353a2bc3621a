"""Tools whose result the analyst sees in QGIS: layers, canvas, styles, panels, Processing, undo."""
