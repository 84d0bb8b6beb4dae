from django import template

from taxilaw.brazil import br_number as _br_number
from taxilaw.brazil import brl as _brl

register = template.Library()


@register.filter
def brl(value):
    return _brl(value)


@register.filter
def br_number(value, places=None):
    return _br_number(value, None if places in (None, "") else int(places))
