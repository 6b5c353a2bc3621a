"""Stands in for QGIS 4's qgis package in the Qt 6 check: only qgis.PyQt (see README.md)."""
