"""The analysis tool families on rasters, vectors and collections, and the helpers they share."""
