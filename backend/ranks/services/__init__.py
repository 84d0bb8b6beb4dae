"""Writes on zones, ranks and contests: one transaction each, the law core first.

``ranks``: the central zone, ranks, assignments, check-ins, observations, swaps and force majeure;
``contests``: contests for permits and ranks, their draws and results (Art. 15-21, 27, 41).
"""
