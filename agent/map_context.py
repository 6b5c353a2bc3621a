"""What the user is looking at when they send a message, given to the model compactly."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

# Layer types as the plugin reports them; they become policy states ("raster_layer", ...).
LAYER_KINDS = ("raster", "vector", "mesh", "point_cloud", "vector_tile")
_MAX_FEATURES_CHARS = 1500
MARKER = "[map] "  # starts the block appended to a user message; session titles cut it off


@dataclass(frozen=True)
class LayerInfo:
    name: str
    kind: str = "vector"  # one of LAYER_KINDS
    id: str = ""
    crs: str = ""
    geometry: str = ""  # for vector layers: Point, Polygon, ...
    feature_count: int | None = None
    visible: bool = True


@dataclass(frozen=True)
class MapContext:
    extent: tuple[float, float, float, float] | None = None  # xmin, ymin, xmax, ymax in `crs`
    crs: str = ""
    center_lonlat: tuple[float, float] | None = None
    scale: float | None = None
    active_layer: str = ""
    selected_features: dict[str, Any] | None = None  # a small GeoJSON FeatureCollection
    layers: tuple[LayerInfo, ...] = field(default_factory=tuple)
    ellipsoid: str = ""  # the project's measurement ellipsoid in words, e.g. "WGS 84 (EPSG:7030)"
    # what the user named with @ in the message (agent/mentions.py): layer names as the project spells them
    mentioned: tuple[str, ...] = ()
    mentioned_selection: bool = False
    mentioned_view: bool = False

    def states(self) -> set[str]:
        """Policy states this map satisfies, e.g. {"qgis", "layer", "raster_layer", "selection"}."""
        found: set[str] = {"qgis"}  # a map context comes from a live QGIS canvas
        for layer in self.layers:
            found.add("layer")
            found.add(f"{layer.kind}_layer")
        if self.selected_features and self.selected_features.get("features"):
            found.add("selection")
        if self.active_layer:
            found.add("active_layer")
        return found

    def to_prompt(self) -> str:
        """A few lines the model can read cheaply; numbers rounded to what matters."""
        lines = []
        if self.extent:
            digits = 5 if _is_geographic(self.crs) else 1
            ext = ", ".join(f"{v:.{digits}f}" for v in self.extent)
            lines.append(f"extent: [{ext}] ({self.crs or 'unknown CRS'})")
        elif self.crs:
            lines.append(f"crs: {self.crs}")
        if self.center_lonlat:
            lines.append(f"centre lon/lat: {self.center_lonlat[0]:.5f}, {self.center_lonlat[1]:.5f}")
        if self.scale:
            lines.append(f"scale: 1:{self.scale:,.0f}")
        if self.active_layer:
            lines.append(f"active layer: {self.active_layer}")
        if self.ellipsoid:
            lines.append(f"measurement ellipsoid: {self.ellipsoid}")
        if self.layers:
            lines.append("layers: " + "; ".join(_layer_line(layer) for layer in self.layers))
        features = _features_text(self.selected_features)
        if features:
            lines.append(f"selected features: {features}")
        named = self.mentions_data()
        if named:
            lines.append("named by the user with @ (use these exact names and ids): "
                         + json.dumps(named, ensure_ascii=False, separators=(",", ":")))
        return MARKER + "\n".join(lines) if lines else ""

    def mentions_data(self) -> list[dict[str, Any]]:
        """What the user @-mentioned, as data: each layer with its id, kind and CRS, the selection, the view."""
        by_name = {layer.name: layer for layer in self.layers}
        named: list[dict[str, Any]] = []
        for name in self.mentioned:
            layer = by_name.get(name)
            entry: dict[str, Any] = {"layer": name}
            if layer is not None:
                entry.update({k: v for k, v in (("id", layer.id), ("kind", layer.kind), ("geometry", layer.geometry),
                                                 ("features", layer.feature_count), ("crs", layer.crs))
                              if v not in ("", None)})
            named.append(entry)
        if self.mentioned_selection:
            selection = self.selected_features or {}
            count = selection.get("selected_count") or len(selection.get("features") or [])
            named.append({"selection": {"layer": selection.get("layer", self.active_layer), "features": count}
                          if count else "nothing is selected"})
        if self.mentioned_view:
            named.append({"view": {"extent": [round(v, 6) for v in self.extent] if self.extent else None,
                                   "crs": self.crs}})
        return named

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MapContext:
        layers = tuple(LayerInfo(**layer) if isinstance(layer, dict) else layer
                       for layer in data.get("layers", ()))
        extent = tuple(data["extent"]) if data.get("extent") else None
        center = tuple(data["center_lonlat"]) if data.get("center_lonlat") else None
        return cls(extent=extent, crs=data.get("crs", ""), center_lonlat=center, scale=data.get("scale"),
                   active_layer=data.get("active_layer", ""),
                   selected_features=data.get("selected_features"), layers=layers,
                   ellipsoid=data.get("ellipsoid", ""),
                   mentioned=tuple(data.get("mentioned") or ()),
                   mentioned_selection=bool(data.get("mentioned_selection")),
                   mentioned_view=bool(data.get("mentioned_view")))


def _is_geographic(crs: str) -> bool:
    return crs.upper() in ("EPSG:4326", "OGC:CRS84", "EPSG:4258", "EPSG:4269")


def _layer_line(layer: LayerInfo) -> str:
    bits = [layer.kind]
    if layer.geometry:
        bits.append(layer.geometry)
    if layer.feature_count is not None:
        bits.append(f"{layer.feature_count} features")
    if layer.crs:
        bits.append(layer.crs)
    if not layer.visible:
        bits.append("hidden")
    return f"{layer.name} ({', '.join(bits)})"


def _features_text(collection: dict[str, Any] | None) -> str:
    if not collection or not collection.get("features"):
        return ""
    text = json.dumps(collection, separators=(",", ":"), ensure_ascii=False)
    if len(text) <= _MAX_FEATURES_CHARS:
        return text
    count = collection.get("selected_count") or len(collection["features"])
    ids = [f.get("id") for f in collection["features"][:20] if f.get("id") is not None]
    return f"{count} features (too large to inline; ids {ids}); use a selection tool to read them"
