"""STAC catalogs (APIs and static catalogs) and the tools that search them."""
