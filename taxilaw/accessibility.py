"""Cabs equipped for a passenger's needs: a wheelchair, a child seat (Lei 13.146/2015, art. 51; the radio-taxi, Art. 66).

Lei 1.242/1987 predates accessibility rules; the Lei Brasileira de Inclusão (Lei 13.146/2015) asks taxi fleets for
vehicles accessible to people with disabilities (art. 51). A child seat is what families ask for most after that; no
rule makes every taxi carry one, so those that do say so in the registry. A ride that asks for such a vehicle is offered only to a cab whose registered
vehicle has it (Art. 66: the central chooses the cab): a cab without it would arrive and be useless, or worse.
Django-free: the caller passes the vehicle's features as read from the registry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .decision import Decision, Reason
from .i18n import gettext_noop as _

WHEELCHAIR = "wheelchair_accessible"
CHILD_SEAT = "child_seat"
FEATURES = (WHEELCHAIR, CHILD_SEAT)  # the registry's vehicle fields of the same names

# How each feature reads in a sentence ("um táxi {label}").
LABELS: Mapping[str, str] = {
    WHEELCHAIR: _("acessível para cadeira de rodas"),
    CHILD_SEAT: _("com cadeirinha infantil"),
}


def known_needs(needs: Iterable[str]) -> tuple[str, ...]:
    """The needs asked, in the registry's order, unknown ones refused (``ValueError``) rather than ignored."""
    asked = set(needs)
    unknown = asked - set(FEATURES)
    if unknown:
        raise ValueError(f"unknown vehicle features: {sorted(unknown)}")
    return tuple(f for f in FEATURES if f in asked)


def describe(needs: Iterable[str]) -> str:
    """The needs as one pt-BR phrase: "acessível para cadeira de rodas e com cadeirinha infantil"."""
    labels = [LABELS[f] for f in known_needs(needs)]
    return " e ".join(labels)


def equipped_for(needs: Iterable[str], features: Mapping[str, bool]) -> Decision:
    """May a cab whose vehicle has ``features`` (feature -> bool) take a ride that asks for ``needs``?
    Every need must be met: a ride for a wheelchair is never offered to a cab that cannot take one
    (Lei 13.146/2015, art. 51; Art. 66)."""
    missing = [f for f in known_needs(needs) if not features.get(f)]
    if missing:
        return Decision.refuse(Reason(
            "Art. 66", "vehicle_not_equipped",
            _("O veículo deste táxi não é {needs}, como o passageiro pediu."), {"needs": describe(missing)},
        ))
    return Decision.allow("Art. 66")


def none_free(needs: Iterable[str]) -> Reason:
    """What the passenger and the operators are told when no cab so equipped is free near the pickup (Art. 66)."""
    return Reason(
        "Art. 66", "no_equipped_cab",
        _("Nenhum táxi {needs} está livre perto de você agora. A central foi avisada e está procurando um; "
          "você pode continuar esperando ou cancelar o pedido."),
        {"needs": describe(needs)},
    )
