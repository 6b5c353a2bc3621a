"""The compute under the tools: plain data in and out, never qgis or Qt (worker threads, Dask workers)."""
