"""STAC documents older than 1.0 (0.8, 0.9) read as 1.0: bands described once in the item's properties
(`eo:bands`) and referred to by index from assets, or not at all, are put on the assets that hold them.
The reading lives with the band fields (engine/stac_bands.py), where the engine's band choice uses it too."""

from __future__ import annotations

from ..engine.stac_bands import is_pre_1_0, upgraded_item

__all__ = ["is_pre_1_0", "upgraded_item"]
