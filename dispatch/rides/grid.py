"""The spatial grid of the nearest-cab search: cells of about 550 m, searched in growing blocks."""

import math
from collections.abc import Iterator

CELL_DEG = 0.005


def cell_of(lat: float, lon: float) -> str:
    return f"{math.floor(lat / CELL_DEG)}:{math.floor(lon / CELL_DEG)}"


def blocks(lat: float, lon: float, shrink: float, radii: tuple[int, ...]) -> Iterator[tuple[list[str], float]]:
    """Growing blocks of cells around a point, each as (its cells not in an earlier block, its reach).

    First the 2x2 cells nearest the point (its cell and the neighbours on the side of its quadrant,
    so the point is at least half a cell inside), then the squares of the given radii around its cell.
    The reach is the distance from the point to the block's nearest edge, in degrees of latitude with
    longitudes times ``shrink``: every point outside the block is at least that far.
    """
    y, x = lat / CELL_DEG, lon / CELL_DEG  # as cell_of divides, so a point's cell and the edges agree
    row, col = math.floor(y), math.floor(x)
    quadrant = (row - (y - row < 0.5), col - (x - col < 0.5), 2)  # first row, first column, size
    seen: set[tuple[int, int]] = set()
    for row0, col0, size in [quadrant, *((row - r, col - r, 2 * r + 1) for r in radii)]:
        block = [(i, j) for i in range(row0, row0 + size) for j in range(col0, col0 + size)]
        cells = [f"{i}:{j}" for i, j in block if (i, j) not in seen]
        seen.update(block)
        reach = CELL_DEG * min(y - row0, row0 + size - y, (x - col0) * shrink, (col0 + size - x) * shrink)
        yield cells, reach
