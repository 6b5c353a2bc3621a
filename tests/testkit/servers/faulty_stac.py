"""A small STAC API on loopback whose failures a test switches on and off: slow answers, HTTP 500,
malformed JSON, a broken asset href, or down altogether. Its one scene is a real COG it serves itself
(with Range, through the COG server's static files), so a healthy call really shows a layer."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..worlds.cogs import write_cog
from .cog_server import CogServer

BBOX = [4.8, 45.7, 4.9, 45.8]


@dataclass
class Faults:
    delay_s: float = 0.0  # before every answer, COG bytes included
    status: int = 200  # e.g. 500: every JSON answer fails with it
    malformed: bool = False  # JSON answers are cut in the middle
    huge_assets: int = 0  # the item carries this many extra assets (25,000 ≈ 10 MB of JSON)
    claimed_matched: int = 1  # the search's numberMatched: more than its one scene, with no next link, lies


def _scene(base: str) -> dict:
    b = BBOX
    return {"type": "Feature", "stac_version": "1.0.0", "id": "scene-1", "collection": "scenes", "bbox": b,
            "geometry": {"type": "Polygon", "coordinates": [[[b[0], b[1]], [b[2], b[1]], [b[2], b[3]],
                                                             [b[0], b[3]], [b[0], b[1]]]]},
            "properties": {"datetime": "2024-06-15T10:00:00Z", "proj:epsg": 4326},
            "assets": {"data": {"href": f"{base}/files/scene.tif", "type": "image/tiff", "roles": ["data"]},
                       "broken": {"href": f"{base}/files/missing.tif", "type": "image/tiff", "roles": ["data"]}},
            "links": []}


class FaultyStac:
    def __init__(self, root: Path) -> None:
        self.faults = Faults()
        root = Path(root)
        write_cog(root / "files" / "scene.tif", np.linspace(0, 100, 100 * 100, dtype=np.float32).reshape(100, 100),
                  origin=(BBOX[0], BBOX[3]), pixel_size=0.001, nodata=-9999.0)
        routes = [Route("/", self._root), Route("/conformance", self._conformance),
                  Route("/collections", self._collections), Route("/collections/{cid}", self._collection),
                  Route("/collections/{cid}/items/{iid}", self._item),
                  Route("/search", self._search, methods=["GET", "POST"])]
        self.server = CogServer(root, routes)
        config = self.server._server.config  # every answer, files included, goes through the delay
        config.app = _Delayed(config.app, self.faults)

    @property
    def url(self) -> str:
        return self.server.url

    def start(self) -> FaultyStac:
        self.server.start()
        return self

    def stop(self) -> None:
        self.server.stop()

    def catalogs_env(self, name: str = "Faulty") -> str:
        return json.dumps([{"name": name, "url": self.url, "kind": "api"}])

    # ---- answers -------------------------------------------------------------------
    def _json(self, doc: dict) -> Response:
        if self.faults.status != 200:
            return JSONResponse({"code": "InternalError", "description": "database is on fire"},
                                status_code=self.faults.status)
        if self.faults.malformed:
            return Response(json.dumps(doc)[:40], media_type="application/json")
        return JSONResponse(doc)

    async def _root(self, request: Request) -> Response:
        return self._json({"type": "Catalog", "id": "faulty", "description": "test", "stac_version": "1.0.0",
                           "conformsTo": ["https://api.stacspec.org/v1.0.0/core",
                                          "https://api.stacspec.org/v1.0.0/item-search"], "links": []})

    async def _conformance(self, request: Request) -> Response:
        return self._json({"conformsTo": ["https://api.stacspec.org/v1.0.0/core",
                                          "https://api.stacspec.org/v1.0.0/item-search"]})

    def _collection_doc(self) -> dict:
        return {"type": "Collection", "stac_version": "1.0.0", "id": "scenes", "description": "Scenes",
                "license": "CC-BY-4.0", "links": [],
                "extent": {"spatial": {"bbox": [BBOX]}, "temporal": {"interval": [["2024-01-01T00:00:00Z", None]]}}}

    async def _collections(self, request: Request) -> Response:
        return self._json({"collections": [self._collection_doc()], "links": []})

    async def _collection(self, request: Request) -> Response:
        if request.path_params["cid"] != "scenes":
            return JSONResponse({"code": "NotFound"}, status_code=404)
        return self._json(self._collection_doc())

    async def _item(self, request: Request) -> Response:
        item = _scene(self.url)
        for i in range(self.faults.huge_assets):
            item["assets"][f"extra-{i:05d}"] = {
                "href": f"{self.url}/files/extra/{i:05d}/" + "x" * 300 + ".tif", "type": "image/tiff",
                "roles": ["data"], "title": f"Extra asset {i}"}
        return self._json(item)

    async def _search(self, request: Request) -> Response:
        return self._json({"type": "FeatureCollection", "features": [_scene(self.url)], "links": [],
                           "numberMatched": self.faults.claimed_matched})


class _Delayed:
    def __init__(self, app, faults: Faults) -> None:
        self.app, self.faults = app, faults

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and self.faults.delay_s:
            await asyncio.sleep(self.faults.delay_s)
        await self.app(scope, receive, send)
