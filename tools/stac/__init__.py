"""STAC catalogs and their documents: APIs, static catalogs, search paging, access and signing, summaries.
May import `common`, `confirmation`, `output_names` and `engine/`; the search tools live in `search/`."""
