"""The law core: Muriaé's Lei 1.242/1987 (taxi service) as plain Python.

Every rule is a function whose docstring cites the article it implements and
which returns a :class:`taxilaw.decision.Decision` naming the articles it relied
on. This package must never import Django, Kivy or Shapely: the backend, the
dispatcher and the Kivy driver app all import it.
"""
