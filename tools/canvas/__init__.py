"""Tools whose result the analyst sees in QGIS. Rooms, lowest first: `undo/`, the map's own view at this root,
`layers/`, `processing/`, `layouts/`, then `family`. May import every tools room below `canvas/`."""
