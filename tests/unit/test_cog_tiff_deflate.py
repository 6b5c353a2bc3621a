"""The COG reader's DEFLATE tiles decode to the same samples through the system's libdeflate (GDAL's decoder) as
through zlib: whole tiles and a window's edge tile, with the horizontal predictor; a corrupt tile is still an error
and a stream longer than its tile still gives the tile."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from stacgis_agent.tools.engine import cog_tiff

WIDTH, HEIGHT = 32, 16


def _level(predictor: int) -> cog_tiff.Level:
    return cog_tiff.Level(WIDTH, HEIGHT, WIDTH, HEIGHT, (0,), (1,), np.dtype("<u2"), 1, 1, cog_tiff.DEFLATE,
                          predictor)


def _tile(values: np.ndarray, predictor: int, extra: bytes = b"") -> bytes:
    stored = values.astype("<u2")
    if predictor == 2:  # the horizontal differencing a writer applies (wrapping as uint16)
        stored = np.diff(stored, axis=1, prepend=np.zeros((HEIGHT, 1), "<u2")).astype("<u2")
    return zlib.compress(stored.tobytes() + extra)


@pytest.fixture(params=["libdeflate", "zlib"])
def decoder(request, monkeypatch):
    if request.param == "zlib":
        monkeypatch.setattr(cog_tiff._LIBDEFLATE, "_lib", None)
    elif cog_tiff._LIBDEFLATE._lib is None:
        pytest.skip("no libdeflate on this system (GDAL's Debian package brings it)")
    return request.param


@pytest.mark.parametrize("predictor", [1, 2])
def test_a_tile_and_an_edge_tiles_part_decode_alike(decoder, predictor):
    values = np.random.default_rng(7).integers(0, 65535, (HEIGHT, WIDTH), dtype=np.uint16)
    level = _level(predictor)
    data = _tile(values, predictor)
    assert np.array_equal(level.decode(data, 1, None), values)
    assert np.array_equal(level.decode(data, 1, None, rows=5, columns=9), values[:5, :9])


def test_a_corrupt_tile_is_an_error_and_a_longer_stream_gives_its_tile(decoder):
    values = np.arange(HEIGHT * WIDTH, dtype=np.uint16).reshape(HEIGHT, WIDTH)
    level = _level(1)
    with pytest.raises((OSError, zlib.error)):
        level.decode(b"\x78\x9c not deflate at all", 1, None)
    assert np.array_equal(level.decode(_tile(values, 1, extra=b"\0" * 4096), 1, None), values)


def test_the_system_decoder_is_used_where_the_system_has_it():
    if cog_tiff._LIBDEFLATE._lib is None:
        pytest.skip("no libdeflate on this system")
    values = np.arange(HEIGHT * WIDTH, dtype=np.uint16).reshape(HEIGHT, WIDTH)
    raw = cog_tiff._LIBDEFLATE.inflate(_tile(values, 1), values.nbytes)
    assert raw is not None and bytes(raw) == values.astype("<u2").tobytes()
