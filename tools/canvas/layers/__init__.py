"""STAC items, assets, mosaics, footprints and index layers put on the map, and their styles.
May import the canvas root, `undo/`, and the tools below `canvas/` (engine reads in workers)."""
