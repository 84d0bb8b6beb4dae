"""The Muriaé taxi driver app (Kivy).

Screen logic lives in :mod:`driver_app.viewmodels` (plain Python, no Kivy),
the law in :mod:`taxilaw` (no Django, no Shapely); :mod:`driver_app.ui` and
the ``kv/`` files only draw what the view-models say.  See docs/driver-app.md.
"""

__version__ = "0.1.0"
