"""The STAC search tools the model calls: catalogs, collections, items (`stac_search`).
May import the face (`declare`, `deps`, `common`), `stac/` (the readers) and `analysis/` (the selection)."""
