"""The spatial grid of the nearest-cab search: cells of about 550 m, searched ring by ring."""

import math

CELL_DEG = 0.005


def cell_of(lat: float, lon: float) -> str:
    return f"{math.floor(lat / CELL_DEG)}:{math.floor(lon / CELL_DEG)}"


def rings(lat: float, lon: float, inner: int, outer: int) -> list[str]:
    """The cells at a Chebyshev distance from ``inner`` to ``outer`` (inclusive) from the point's cell (0: the cell itself)."""
    row, col = math.floor(lat / CELL_DEG), math.floor(lon / CELL_DEG)
    return [
        f"{row + dr}:{col + dc}"
        for dr in range(-outer, outer + 1)
        for dc in range(-outer, outer + 1)
        if inner <= max(abs(dr), abs(dc))
    ]
