"""Query parameters read the same way everywhere: a bad value is a 400 naming the field, never a 500.

``"abc"``, ``"²"`` (a Unicode digit ``int()`` refuses) or ``10**20`` (beyond a database integer) are
refused here, before any query runs.
"""

import re

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError

#: a database id: ASCII digits, at most 18 of them (fits PostgreSQL's bigint and SQLite's integer)
ID_PATTERN = "[0-9]{1,18}"
_ID = re.compile(ID_PATTERN)


def int_param(params, name: str, default: int | None = None, *, minimum: int = 0, maximum: int = 10**18 - 1) -> int | None:
    """``params[name]`` as an int in [minimum, maximum]; ``default`` when absent or empty."""
    raw = params.get(name)
    if raw in (None, ""):
        return default
    text = raw.strip()
    negative = text.startswith("-")
    if not _ID.fullmatch(text[1:] if negative else text):
        raise ValidationError({name: [_("Informe um número inteiro.")]})
    value = -int(text[1:]) if negative else int(text)
    if not minimum <= value <= maximum:
        raise ValidationError({name: [_("Informe um número entre %(min)s e %(max)s.") % {"min": minimum, "max": maximum}]})
    return value
