"""The spatial grid of the nearest-cab search: cells of about 550 m, searched in growing squares."""

import math

CELL_DEG = 0.005


def cell_of(lat: float, lon: float) -> str:
    return f"{math.floor(lat / CELL_DEG)}:{math.floor(lon / CELL_DEG)}"


def square(lat: float, lon: float, radius: int) -> list[str]:
    """The cells at a Chebyshev distance of at most ``radius`` from the point's cell (0: the cell itself)."""
    row, col = math.floor(lat / CELL_DEG), math.floor(lon / CELL_DEG)
    return [f"{row + dr}:{col + dc}" for dr in range(-radius, radius + 1) for dc in range(-radius, radius + 1)]
