"""Deliverables: print layouts (page, credits, atlas and its numbers), exports, animations, session reports.
May import the canvas root, `undo/` and `layers/` (styles for a page), and the tools below `canvas/`."""
