"""The compute under the tools: plain data in and out (worker threads, Dask workers), GDAL's dataset names.
May import only itself and `tools.common`: never qgis, Qt, or another tools room."""
