"""Legal amounts as dated acts: a change is a new act, from its date on, and the statute's own amounts stay the statute's.

A parameter's history is a list of acts (``DatedValue``): each with the date it
takes effect and the act that set it. Correcting a value never rewrites an act
already recorded; it records a new one, effective from a date not yet past, so
what is pending keeps the value of its own date (CF art. 5, XXXVI and XL: a
later act reaches neither the perfect legal act nor a past infraction).

Some amounts are fixed by Lei 1.242/1987 itself (the late-renewal fine, the
transfer and vistoria fees, the fine groups of Art. 55 as amended by Lei
2.593/2002, the fleet ratio): a decree cannot change them, only another law
(hierarchy of norms), so a new act with another value must be a law. The prior
deposit of Art. 63, §5 was struck down by STF Súmula Vinculante 21, which binds
every organ of the administration: no act may bring it back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Mapping, Optional

from .brazil import br_number
from .decision import Decision, Reason
from .i18n import gettext_noop

ART_DEPOSIT = "Art. 63, §5"


@dataclass(frozen=True)
class StatuteAmount:
    """An amount the statute fixes: its article and value."""

    article: str
    value: Decimal


#: Amounts Lei 1.242/1987 fixes itself; only another law changes them.
STATUTE_AMOUNTS: Mapping[str, StatuteAmount] = {
    "late_renewal_fine_ufm": StatuteAmount("Art. 4, §2", Decimal("1")),
    "transfer_fee_taxi_upfm": StatuteAmount("Art. 6, §3, a", Decimal("10")),
    "transfer_fee_bus_upfm": StatuteAmount("Art. 6, §3, b", Decimal("50")),
    "transfer_fee_minibus_upfm": StatuteAmount("Art. 6, §3, c", Decimal("20")),
    "inspection_fee_upfm": StatuteAmount("Art. 40", Decimal("0.30")),
    "inhabitants_per_taxi": StatuteAmount("Art. 41", Decimal("1000")),
    "fine_group_a_brl": StatuteAmount("Art. 55, I", Decimal("210.00")),
    "fine_group_b_brl": StatuteAmount("Art. 55, II", Decimal("140.00")),
    "fine_group_c_brl": StatuteAmount("Art. 55, III", Decimal("70.00")),
}

#: The day STF Súmula Vinculante 21 was published (DJe 10/11/2009): from then on no prior deposit for an appeal.
DEPOSIT_STRUCK_DOWN_ON = date(2009, 11, 10)
DEPOSIT_PARAMETER = "appeal_deposit_required"

_LAW_SOURCE = re.compile(r"\s*lei\b", re.IGNORECASE)


def is_law_source(source: str) -> bool:
    """The act that sets the value is a law (its source starts with "Lei"), not a decree or a portaria."""
    return bool(_LAW_SOURCE.match(source or ""))


def statute_allows(name: str, effective_from: date, value: Decimal, source: str) -> Decision:
    """Whether an act may set ``name`` to ``value`` at all: the statute's own amounts change only by law
    (Art. 4, §2; Art. 6, §3, a-c; Art. 40; Art. 41; Art. 55, I-III), and the deposit of Art. 63, §5
    cannot come back after STF Súmula Vinculante 21."""
    if name == DEPOSIT_PARAMETER and effective_from >= DEPOSIT_STRUCK_DOWN_ON and Decimal(value) != 0:
        return Decision.refuse(Reason(
            ART_DEPOSIT, "deposit_struck_down",
            gettext_noop("O depósito prévio do recurso (Art. 63, §5) foi afastado pela Súmula Vinculante 21 do STF; "
                         "nenhum ato pode restabelecê-lo."),
        ))
    fixed = STATUTE_AMOUNTS.get(name)
    if fixed and Decimal(value) != fixed.value and not is_law_source(source):
        return Decision.refuse(Reason(
            fixed.article, "statute_amount",
            gettext_noop("O valor de {name} é fixado pela Lei 1.242/1987 ({article}: {value}); só outra lei o altera, "
                         "não um decreto."),
            {"name": name, "article": fixed.article, "value": br_number(fixed.value)},
        ))
    return Decision.allow(*((fixed.article,) if fixed else ()))


def may_record_act(
    name: str, effective_from: date, value: Decimal, source: str, today: date, last_effective: Optional[date] = None
) -> Decision:
    """A new act for a legal amount or parameter (Art. 55, Art. 64, Art. 67): with its source, effective from today
    or later (never reaching back to what is pending, CF art. 5, XXXVI), after the last act of the same name, and
    within what the statute allows (:func:`statute_allows`)."""
    reasons = []
    if not (source or "").strip():
        reasons.append(Reason("Art. 67", "act_source_missing", gettext_noop("Informe o ato normativo que fixa o valor (fonte).")))
    if effective_from < today:
        reasons.append(Reason(
            "Art. 67", "act_retroactive",
            gettext_noop("Um novo ato vale a partir de hoje ou de data futura ({today}); não alcança o que já passou."),
            {"today": today},
        ))
    if last_effective is not None and effective_from <= last_effective:
        reasons.append(Reason(
            "Art. 67", "act_before_last",
            gettext_noop("Já há um ato de {name} vigente a partir de {last}; o novo ato deve ter data posterior."),
            {"name": name, "last": last_effective},
        ))
    statute = statute_allows(name, effective_from, value, source)
    if reasons:
        return Decision.all_of(Decision.refuse(*reasons), statute)
    return statute


def known_parameter(name: str, known: "frozenset[str] | set[str]") -> Decision:
    """An act sets a parameter the rules read (``taxilaw.parameters.PARAMETER_UNITS``); another name would be an act
    no rule applies (Art. 67)."""
    if name in known:
        return Decision.allow("Art. 67")
    return Decision.refuse(Reason("Art. 67", "act_unknown_parameter",
                                  gettext_noop("Parâmetro desconhecido: {name}."), {"name": name}))


def may_rewrite_act(name: str, article: str = "Art. 67") -> Decision:
    """An act already recorded is never rewritten or deleted (CF art. 5, XXXVI): a correction is a new act with its
    own date and source (Art. 55, Art. 64, Art. 67). Always a refusal, citing ``article`` (the amount's own)."""
    cited = STATUTE_AMOUNTS[name].article if name in STATUTE_AMOUNTS else article
    return Decision.refuse(Reason(
        cited, "act_is_append_only",
        gettext_noop("{name} é um ato já registrado: não se altera nem se apaga; registre um novo ato com data de "
                     "vigência e fonte."),
        {"name": name},
    ))
