"""Writes of enforcement: each one atomic, each one asking the law core (taxilaw.penalties) first.

One module per stage of the procedure: ``complaints`` (Art. 60), ``autos`` (Art. 60-62), ``decisions``
(Art. 54-59), ``appeals`` (Art. 63), ``fines`` (payment).
"""
