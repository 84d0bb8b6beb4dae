"""Cells of every CSV export made safe for spreadsheets (OWASP "CSV Injection").

A spreadsheet evaluates a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, and a leading tab or
carriage return can hide one; a registry name such as ``=HYPERLINK("http://...")`` would become a live link in the
municipality's spreadsheets. The OWASP rule: such a cell is prefixed with ``'``, which spreadsheets show as text and
do not evaluate. A plain number (``-12,50``, a negative settlement) is no formula and stays a number.
"""

from __future__ import annotations

import re

FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"^-?\d+(?:[.,]\d+)?$")


def safe_cell(value):
    """``value`` as a CSV cell a spreadsheet cannot evaluate: text led by a formula character gets a ``'``."""
    if not isinstance(value, str) or not value.startswith(FORMULA_LEADS) or _PLAIN_NUMBER.match(value):
        return value
    return "'" + value


class SafeWriter:
    """A ``csv.writer`` whose every cell goes through :func:`safe_cell`."""

    def __init__(self, writer):
        self.writer = writer

    def writerow(self, row):
        self.writer.writerow([safe_cell(cell) for cell in row])
