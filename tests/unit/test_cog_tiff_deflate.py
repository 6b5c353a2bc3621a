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


LAUGHS = ('<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
          '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><GDALMetadata><Item name="SCALE" sample="0" role="scale">'
          '&c;</Item></GDALMetadata>')
PLAIN = ('<GDALMetadata><Item name="SCALE" sample="0" role="scale">0.0001</Item>'
         '<Item name="OFFSET" sample="0" role="offset">-0.1</Item></GDALMetadata>')


def test_gdal_metadata_with_a_dtd_is_left_to_gdal_and_plain_metadata_gives_the_scales():
    """A remote file's GDAL_METADATA tag is untrusted XML: a DTD (entities that expand: 'billion laughs') is never
    parsed here, the file goes to GDAL (whose own parser expands no entity); GDAL's plain items give the band's
    scale and offset."""
    with pytest.raises(cog_tiff.Unsupported):
        cog_tiff._scales({42112: [LAUGHS]})
    with pytest.raises(cog_tiff.Unsupported):
        cog_tiff._scales({42112: ["<GDALMetadata><Item"]})
    assert cog_tiff._scales({42112: [PLAIN]}) == {1: (0.0001, -0.1)}
