"""Marker for user-facing texts of the law core.

The law core has no translation machinery of its own (it must stay
Django-free). Texts are written in Brazilian Portuguese and wrapped in
``gettext_noop`` so that Django's ``makemessages`` collects them; the backend
translates them when it renders a decision (see ``Reason.message``).
"""


def gettext_noop(text: str) -> str:
    return text
