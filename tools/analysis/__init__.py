"""The analysis tool families on rasters, vectors and collections, the measurements (measure*), and the project
read as plain data.
May import the face (`deps`, `declare`, `common`), `engine/` and `stac/`."""
