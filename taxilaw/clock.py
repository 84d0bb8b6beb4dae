"""The clock where a date is typed: an act is recorded on or before the day it is recorded, never ahead of it.

A date typed by staff (a vistoria, an auto, an act, a check-in) is evidence of something that happened. A date
in the future is not a fact yet: a vistoria dated in 2030 would keep a cab legal until 2031 (Art. 35). Each
function takes ``today`` (the recording day in America/Sao_Paulo) from the caller.
"""

from __future__ import annotations

from datetime import date

from .decision import Decision, Reason
from .i18n import gettext_noop as _


def not_in_future(day: date, today: date, article: str, what: str) -> Decision:
    """``day`` (the date of ``what``) is today or earlier; ``article`` is the provision the date serves
    (Art. 35 for a vistoria, Art. 60 for an auto, Art. 63 for a procedural act)."""
    if day <= today:
        return Decision.allow(article)
    return Decision.refuse(Reason(
        article, "date_in_future",
        _("A data de {what} ({day}) é posterior a hoje ({today}); registra-se o que já aconteceu."),
        {"what": what, "day": day, "today": today},
    ))


def may_record_staff_checkin(day: date, today: date, correction_reason: str) -> Decision:
    """An inspector records a cab at a rank today, where the cab's position shows it (Art. 9, V, Art. 22); a past
    day only as a correction with its justification, kept with who recorded it. Never a day ahead."""
    if day > today:
        return not_in_future(day, today, "Art. 9, V", "chegada ao ponto")
    if day == today or (correction_reason or "").strip():
        return Decision.allow("Art. 9, V")
    return Decision.refuse(Reason(
        "Art. 9, V", "checkin_past_day_without_justification",
        _("A presença no ponto é registrada no dia ({today}); um dia passado ({day}) só como correção justificada."),
        {"day": day, "today": today},
    ))
