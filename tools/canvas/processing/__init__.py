"""QGIS Processing as tools and as a provider: the allowlist, what a call does (effects, inputs, outputs, params,
words), its numbers (units, validity, traps), runs on the task manager, the "STAC GIS Agent" provider. May import
the canvas root, `undo/`, `layers/`."""
