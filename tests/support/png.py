"""Read a PNG (8-bit greyscale, RGB or RGBA, not interlaced: what Chromium writes)
into a numpy array, so that screenshot tests need no imaging library.

Rows are inflated with zlib and unfiltered per the PNG specification (filter
types 0-4: None, Sub, Up, Average, Paeth; section 9 of the W3C PNG spec)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np

_CHANNELS = {0: 1, 2: 3, 6: 4}  # colour type -> samples per pixel


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _unfilter(kind: int, row: np.ndarray, prior: np.ndarray, bpp: int) -> np.ndarray:
    out = row.astype(np.int64)
    if kind == 0:
        return out
    if kind == 2:  # Up
        return (out + prior) & 0xFF
    if kind == 1:  # Sub: a running sum of each channel, modulo 256
        for c in range(bpp):
            out[c::bpp] = np.cumsum(out[c::bpp]) & 0xFF
        return out
    if kind not in (3, 4):
        raise ValueError(f"unknown PNG filter type {kind}")
    cur, up = out.tolist(), prior.tolist()  # Average and Paeth depend on the byte before
    for i in range(len(cur)):
        left = cur[i - bpp] if i >= bpp else 0
        if kind == 3:
            cur[i] = (cur[i] + (left + up[i]) // 2) & 0xFF
        else:
            corner = up[i - bpp] if i >= bpp else 0
            cur[i] = (cur[i] + _paeth(left, up[i], corner)) & 0xFF
    return np.array(cur, dtype=np.int64)


def read_png(path: Path) -> np.ndarray:
    """The image as a (height, width, channels) uint8 array."""
    data = Path(path).read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG file")
    pos, idat = 8, []
    width = height = depth = colour = interlace = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if depth != 8 or colour not in _CHANNELS or interlace:
        raise ValueError(f"{path}: only 8-bit grey/RGB/RGBA, not interlaced, is read")
    channels = _CHANNELS[colour]
    stride = width * channels
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), dtype=np.uint8)
    rows = raw.reshape(height, stride + 1)
    out = np.zeros((height, stride), dtype=np.int64)
    prior = np.zeros(stride, dtype=np.int64)
    for y in range(height):
        prior = out[y] = _unfilter(int(rows[y, 0]), rows[y, 1:], prior, channels)
    return out.astype(np.uint8).reshape(height, width, channels)


def grey(path: Path) -> np.ndarray:
    """Luminance (0-255, float) of a PNG, ITU-R 601 weights (as PIL's ``convert("L")``)."""
    img = read_png(path).astype(float)
    if img.shape[2] == 1:
        return img[:, :, 0]
    return img[:, :, 0] * 0.299 + img[:, :, 1] * 0.587 + img[:, :, 2] * 0.114
