"""The parts of a Cloud-Optimized GeoTIFF the COG reader understands: its header (the image and its overviews,
their tiles' byte ranges, the georeferencing as an EPSG code, nodata, scale/offset) and the decoding of a tile
(none or DEFLATE, with or without the horizontal predictor; ZSTD where Python has it). Anything else raises
Unsupported, and GDAL reads that file: LZW, JPEG, JPEG 2000, the floating-point predictor, strips, masks and
alpha bands, rotated or user-defined georeferencing, pixel-is-point.

numpy and the standard library only (it runs on Dask workers too); DEFLATE through the system's libdeflate where
there is one (GDAL's own decoder), else zlib.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import struct
import threading
import zlib
from dataclasses import dataclass
from typing import Any, Callable
from xml.etree import ElementTree  # nosec B405 # only DTD-free GDAL metadata is parsed: _scales refuses any '<!'

import numpy as np

NONE, DEFLATE, ADOBE_DEFLATE, ZSTD = 1, 32946, 8, 50000


def _zstd() -> Callable[[bytes], bytes] | None:
    try:
        from compression import zstd  # Python 3.14

        return zstd.decompress
    except ImportError:
        pass
    try:
        import zstandard

        return lambda data: zstandard.ZstdDecompressor().decompress(data, max_output_size=1 << 30)
    except ImportError:
        return None


class _Libdeflate:
    """The system's libdeflate (GDAL's own DEFLATE decoder, ~4× faster than zlib on these tiles, the GIL released),
    through ctypes: one decompressor a thread, freed with the thread. Not there: zlib decodes."""

    def __init__(self) -> None:
        self._lib: Any = None
        self._local = threading.local()
        try:
            lib = ctypes.CDLL(ctypes.util.find_library("deflate") or "libdeflate.so.0")
            lib.libdeflate_alloc_decompressor.restype = ctypes.c_void_p
            lib.libdeflate_alloc_decompressor.argtypes = []
            lib.libdeflate_free_decompressor.argtypes = [ctypes.c_void_p]
            lib.libdeflate_zlib_decompress.restype = ctypes.c_int
            lib.libdeflate_zlib_decompress.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                                                       ctypes.c_void_p, ctypes.c_size_t,
                                                       ctypes.POINTER(ctypes.c_size_t)]
        except (OSError, AttributeError):
            return
        self._lib = lib

    def inflate(self, data: bytes, size: int) -> np.ndarray | None:
        """A zlib stream's bytes (at most `size`); None when libdeflate is not here or refuses the stream."""
        if self._lib is None:
            return None
        holder = getattr(self._local, "decompressor", None)
        if holder is None:
            holder = self._local.decompressor = _Decompressor(self._lib)
        source = np.frombuffer(data, np.uint8)
        out = np.empty(size, np.uint8)
        got = ctypes.c_size_t()
        if self._lib.libdeflate_zlib_decompress(holder.handle, source.ctypes.data, source.size, out.ctypes.data,
                                                size, ctypes.byref(got)) != 0:
            return None  # corrupt, or longer than a tile: zlib says why
        return out[:got.value]


class _Decompressor:
    def __init__(self, lib: Any) -> None:
        self.lib, self.handle = lib, lib.libdeflate_alloc_decompressor()

    def __del__(self) -> None:
        if self.handle:
            self.lib.libdeflate_free_decompressor(self.handle)


_LIBDEFLATE = _Libdeflate()
_DECOMPRESS: dict[int, Callable[[bytes], bytes] | None] = {
    NONE: bytes, DEFLATE: zlib.decompress, ADOBE_DEFLATE: zlib.decompress, ZSTD: _zstd()}
_TYPES = {1: "B", 2: "s", 3: "H", 4: "I", 5: "II", 6: "b", 7: "B", 8: "h", 9: "i", 10: "ii", 11: "f", 12: "d",
          13: "I", 16: "Q", 17: "q", 18: "Q"}
_SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8}
_FORMATS = {1: "u", 2: "i", 3: "f"}  # SampleFormat: unsigned, signed integer, IEEE float


class Unsupported(Exception):
    """A TIFF the COG reader does not read (GDAL does): the reason in words."""


class Short(Exception):
    """The header reaches beyond the bytes fetched so far: fetch up to `end`, then parse again."""

    def __init__(self, end: int) -> None:
        super().__init__(end)
        self.end = end


@dataclass(frozen=True)
class Level:
    """One image of the file: the full resolution, or an overview."""
    width: int
    height: int
    tile_width: int
    tile_height: int
    offsets: tuple[int, ...]  # per tile (per plane, then row-major), where its bytes start
    counts: tuple[int, ...]  # and how many
    dtype: np.dtype  # of one sample, in the file's byte order
    samples: int  # per pixel
    planar: int  # 1: samples interleaved in each tile; 2: one plane per sample
    compression: int
    predictor: int

    @property
    def tiles_across(self) -> int:
        return -(-self.width // self.tile_width)

    @property
    def tiles_down(self) -> int:
        return -(-self.height // self.tile_height)

    def tile_index(self, column: int, row: int, band: int) -> int:
        per_plane = self.tiles_across * self.tiles_down
        plane = band - 1 if self.planar == 2 else 0
        return plane * per_plane + row * self.tiles_across + column

    def decode(self, data: bytes, band: int, fill: float | None, rows: int | None = None,
               columns: int | None = None, top: int = 0) -> np.ndarray:
        """One tile's samples of `band` (native byte order): its rows `top` to `rows` and first `columns` columns
        (the whole tile by default; a tile at the image's edge holds padding, and a read needs only its part: zlib
        stops there and the predictor, undone row by row, is undone there only)."""
        out_type = self.dtype.newbyteorder("=")
        per_tile = self.samples if self.planar == 1 else 1
        rows = self.tile_height if rows is None else rows
        columns = self.tile_width if columns is None else columns
        if not data:  # a sparse tile: nodata, or 0 without one (as GDAL fills it)
            return np.full((rows - top, columns), 0 if fill is None or (math.isnan(fill) and out_type.kind != "f") else fill,
                           out_type)
        row_bytes = self.tile_width * per_tile * self.dtype.itemsize
        needed = rows * row_bytes
        if self.compression == NONE:
            raw = data[:needed]
        elif self.compression in (DEFLATE, ADOBE_DEFLATE):
            raw = _LIBDEFLATE.inflate(data, self.tile_height * row_bytes)  # the whole tile: libdeflate stops nowhere
            if raw is None:
                raw = zlib.decompressobj().decompress(data, needed)
        else:
            raw = _DECOMPRESS[self.compression](data)
        if len(raw) < needed:
            raise OSError(f"a tile decoded to {len(raw)} bytes where {needed} were expected")
        values = np.frombuffer(raw, self.dtype, count=rows * self.tile_width * per_tile)
        values = values.reshape(rows, self.tile_width, per_tile)[top:, :columns, band - 1 if self.planar == 1 else 0]
        if self.predictor == 2:  # one pass from the decoded bytes; integer sums wrap as the predictor's do
            return np.cumsum(values, axis=1, dtype=out_type)
        return values.astype(out_type, copy=False)  # read-only when the bytes are already in this machine's order


@dataclass(frozen=True)
class Header:
    levels: tuple[Level, ...]  # the full resolution first, then the overviews from finer to coarser
    geotransform: tuple[float, float, float, float, float, float]
    epsg: int
    nodata: float | None
    scales: dict[int, tuple[float | None, float | None]]  # band -> (scale, offset) from GDAL's metadata
    end: int  # the header's last byte + 1 (the IFDs and their arrays)


def parse(data: bytes) -> Header:
    """The header of a COG from its first bytes; Short when they are too few, Unsupported when GDAL must read it."""
    if len(data) < 16:
        raise Short(16)
    order = {b"II": "<", b"MM": ">"}.get(bytes(data[:2]))
    if order is None:
        raise Unsupported("not a TIFF file")
    magic = struct.unpack_from(order + "H", data, 2)[0]
    if magic == 42:
        big, offset = False, struct.unpack_from(order + "I", data, 4)[0]
    elif magic == 43:
        big, offset = True, struct.unpack_from(order + "Q", data, 8)[0]
    else:
        raise Unsupported("not a TIFF file")
    ifds, end = [], 0
    while offset:
        if len(ifds) > 64:
            raise Unsupported("more than 64 images in one file")
        tags, offset, ifd_end = _ifd(data, offset, order, big)
        ifds.append(tags)
        end = max(end, ifd_end)
    levels = []
    for number, tags in enumerate(ifds):
        kind = int(_first(tags, 254, 0))
        if kind & 4:
            raise Unsupported("the file has a mask")
        if number and not kind & 1:
            continue  # another page (not an overview): GDAL ignores it for the first image's bands too
        levels.append(_level(tags, order))
    first = ifds[0]
    return Header(tuple(levels), _geotransform(first), _epsg(first), _nodata(first), _scales(first), end)


NEEDED = frozenset((254, 256, 257, 258, 259, 273, 277, 284, 317, 322, 323, 324, 325, 338, 339, 33550, 33922, 34264,
                    34735, 42112, 42113))  # the tags the reader looks at; the others are skipped unread
_NUMPY = {3: "u2", 4: "u4", 16: "u8", 12: "f8"}  # long arrays (tile offsets, geokeys) are read by numpy


def _ifd(data: bytes, offset: int, order: str, big: bool) -> tuple[dict[int, tuple], int, int]:
    count_format, entry_size, next_format = ("Q", 20, "Q") if big else ("H", 12, "I")
    head = 8 if big else 2
    _need(data, offset + head)
    count = struct.unpack_from(order + count_format, data, offset)[0]
    entries_end = offset + head + count * entry_size + (8 if big else 4)
    _need(data, entries_end)
    entry = struct.Struct(order + ("HHQ" if big else "HHI"))
    pointer = order + ("Q" if big else "I")
    inline = 8 if big else 4
    tags, end = {}, entries_end
    for k in range(count):
        at = offset + head + k * entry_size
        tag, kind, number = entry.unpack_from(data, at)
        if tag not in NEEDED or kind not in _TYPES:
            continue
        size = _SIZES[kind] * number
        value_at = at + (12 if big else 8)
        if size > inline:
            value_at = struct.unpack_from(pointer, data, value_at)[0]
            _need(data, value_at + size)
            end = max(end, value_at + size)
        if kind == 2:
            tags[tag] = (data[value_at:value_at + number].split(b"\0")[0].decode("latin-1"),)
        elif number > 8 and kind in _NUMPY:
            tags[tag] = tuple(np.frombuffer(data, order + _NUMPY[kind], number, value_at).tolist())
        else:
            fmt = _TYPES[kind]
            values = struct.unpack_from(f"{order}{number * len(fmt)}{fmt[0]}", data, value_at)
            if kind in (5, 10):
                values = tuple(values[i] / values[i + 1] if values[i + 1] else 0.0 for i in range(0, len(values), 2))
            tags[tag] = values
    next_offset = struct.unpack_from(order + next_format, data, entries_end - (8 if big else 4))[0]
    return tags, next_offset, end


def _need(data: bytes, end: int) -> None:
    if end > len(data):
        raise Short(end)


def _first(tags: dict, tag: int, default: float | None = None) -> float | None:
    values = tags.get(tag)
    return values[0] if values else default


def _level(tags: dict, order: str) -> Level:
    if 322 not in tags or 324 not in tags:
        raise Unsupported("the image is in strips, not tiles")
    compression = int(_first(tags, 259, NONE))
    if _DECOMPRESS.get(compression) is None:
        raise Unsupported(f"compression {compression} (only none, DEFLATE and ZSTD are decoded here)")
    predictor = int(_first(tags, 317, 1))
    samples = int(_first(tags, 277, 1))
    bits = set(tags.get(258, (1,)))
    formats = set(tags.get(339, (1,)))
    if len(bits) != 1 or len(formats) != 1 or 338 in tags:
        raise Unsupported("bands of different types, or an alpha band")
    kind = _FORMATS.get(int(formats.pop()))
    width = bits.pop()
    if kind is None or width not in (8, 16, 32, 64) or (kind == "f" and width < 32):
        raise Unsupported("a sample type GDAL's reader handles")
    if predictor not in (1, 2) or (predictor == 2 and kind == "f"):
        raise Unsupported(f"predictor {predictor}")
    return Level(int(tags[256][0]), int(tags[257][0]), int(tags[322][0]), int(tags[323][0]),
                 tuple(int(v) for v in tags[324]), tuple(int(v) for v in tags[325]),
                 np.dtype(f"{order}{kind}{width // 8}"), samples, int(_first(tags, 284, 1)),
                 compression, predictor)


def _geotransform(tags: dict) -> tuple[float, float, float, float, float, float]:
    if 34264 in tags:
        raise Unsupported("a transformation matrix (rotated or sheared georeferencing)")
    scale, tie = tags.get(33550), tags.get(33922)
    if not scale or not tie or len(tie) < 6:
        raise Unsupported("no georeferencing")
    i, j, _, x, y, _ = tie[:6]
    return (x - i * scale[0], scale[0], 0.0, y + j * scale[1], 0.0, -scale[1])


def _epsg(tags: dict) -> int:
    keys = tags.get(34735)
    if not keys or len(keys) < 4:
        raise Unsupported("no GeoTIFF keys")
    found = {keys[4 + 4 * k]: (keys[5 + 4 * k], keys[7 + 4 * k]) for k in range(keys[3]) if 7 + 4 * k < len(keys)}
    if found.get(1025, (0, 1))[1] == 2:
        raise Unsupported("pixel-is-point georeferencing")
    model = found.get(1024, (0, 0))[1]
    key = 3072 if model == 1 else 2048 if model == 2 else None
    if key is None or key not in found or found[key][0] != 0 or not 1 <= found[key][1] < 32767:
        raise Unsupported("a CRS that is not an EPSG code")
    return int(found[key][1])


def _nodata(tags: dict) -> float | None:
    text = _first(tags, 42113)
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        return float(text.strip())
    except ValueError:
        return None


def _scales(tags: dict) -> dict[int, tuple[float | None, float | None]]:
    text = _first(tags, 42112)
    out: dict[int, tuple[float | None, float | None]] = {}
    if not isinstance(text, str):
        return out
    if "<!" in text:  # a DTD (entities that expand), a comment or CDATA: GDAL writes none of them, and GDAL reads it
        raise Unsupported("the file's GDAL metadata holds a declaration")
    try:
        root = ElementTree.fromstring(text)  # nosec B314 # no DTD reaches here (refused above): no entity can expand
    except ElementTree.ParseError:
        raise Unsupported("the file's GDAL metadata is not well-formed XML") from None
    for item in root.iter("Item"):
        role, sample = item.get("role"), item.get("sample")
        if role not in ("scale", "offset") or sample is None or not sample.isdigit():
            continue
        try:
            value = float((item.text or "").strip())
        except ValueError:
            continue
        scale, offset = out.get(int(sample) + 1, (None, None))
        out[int(sample) + 1] = (value, offset) if role == "scale" else (scale, value)
    return out
