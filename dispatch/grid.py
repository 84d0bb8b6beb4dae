"""The spatial grid of the nearest-cab search: cells of about 550 m, searched ring by ring."""

import math

CELL_DEG = 0.005


def cell_of(lat: float, lon: float) -> str:
    return f"{math.floor(lat / CELL_DEG)}:{math.floor(lon / CELL_DEG)}"


def ring(lat: float, lon: float, radius: int) -> list[str]:
    """The cells at Chebyshev distance ``radius`` from the point's cell (radius 0 is the cell itself)."""
    row, col = math.floor(lat / CELL_DEG), math.floor(lon / CELL_DEG)
    if radius == 0:
        return [f"{row}:{col}"]
    cells = []
    for dr in range(-radius, radius + 1):
        for dc in range(-radius, radius + 1):
            if max(abs(dr), abs(dc)) == radius:
                cells.append(f"{row + dr}:{col + dc}")
    return cells
