"""The test suite's PNG reader (tests/support/png.py) against PNGs encoded here
with every filter type, written out from the PNG specification's definitions."""

from __future__ import annotations

import struct
import zlib

import numpy as np
import pytest

from tests.support.png import grey, read_png


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def _filter(kind: int, row: list[int], prior: list[int], bpp: int) -> list[int]:
    """Forward filter of one row (the encoder's side)."""
    out = []
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prior[i]
        c = prior[i - bpp] if i >= bpp else 0
        pred = [0, a, b, (a + b) // 2, _paeth(a, b, c)][kind]
        out.append((x - pred) & 0xFF)
    return out


def encode(img: np.ndarray, kinds: list[int]) -> bytes:
    height, width, channels = img.shape
    colour = {1: 0, 3: 2, 4: 6}[channels]
    raw, prior = bytearray(), [0] * (width * channels)
    for y in range(height):
        row = img[y].reshape(-1).tolist()
        raw.append(kinds[y % len(kinds)])
        raw += bytes(_filter(kinds[y % len(kinds)], row, prior, channels))
        prior = row
    ihdr = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", ihdr)
        + _chunk(b"IDAT", zlib.compress(bytes(raw)))
        + _chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_every_filter_type_decodes_to_the_pixels(tmp_path, channels):
    img = np.random.default_rng(channels).integers(0, 256, (10, 7, channels), dtype=np.uint8)
    path = tmp_path / "x.png"
    path.write_bytes(encode(img, [0, 1, 2, 3, 4]))
    assert np.array_equal(read_png(path), img)


def test_grey_weights_red_green_blue_as_itu_601(tmp_path):
    img = np.array([[[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]]], dtype=np.uint8)
    path = tmp_path / "rgb.png"
    path.write_bytes(encode(img, [4]))
    np.testing.assert_allclose(grey(path)[0], [76.245, 149.685, 29.07, 255.0])


def test_not_a_png_is_refused(tmp_path):
    path = tmp_path / "x.png"
    path.write_bytes(b"GIF89a")
    with pytest.raises(ValueError, match="not a PNG"):
        read_png(path)
