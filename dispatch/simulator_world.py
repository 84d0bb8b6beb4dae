"""The simulated Muriaé's preparation (synchronous, Django ORM, run once by ``manage.py simulate``): the permits
whose driver the registry allows to work now get a login user and a DRF token (idempotently), a few demo ranks when
there are none, and a pool of passengers, gathered in a plain :class:`World` for :mod:`dispatch.simulator`."""

from __future__ import annotations

from dataclasses import dataclass, field

CENTRE = (-21.131, -42.367)  # Muriaé, Praça Cel. Pacheco de Medeiros
RESERVED_USERS = ("permissionario", "auxiliar")  # demo logins kept free for humans
SIM_USER_PREFIX = "sim-"


@dataclass
class World:
    cabs: list[dict]  # {token, permit, username}
    ranks: list[dict]  # {id, name, lat, lon}
    passengers: list[dict]  # {token, name}
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (permit, why)


def _driver_for(permit, may_work, Auxiliary):
    """The holder if allowed now, else an active auxiliary who is; with the refusal when none is."""
    people = [permit.holder] + [a.person for a in permit.auxiliaries.filter(status=Auxiliary.Status.ACTIVE).select_related("person")]
    why = ""
    for person in people:
        decision = may_work(person, permit)
        if decision:
            return person, ""
        why = why or ", ".join(r.code for r in decision.reasons)
    return None, why or "no driver"


# Complexity kept: the simulator's setup reads each option once, in the order the CLI documents them.
def prepare(max_cabs: int, passengers: int = 20, reserved: tuple[str, ...] = RESERVED_USERS) -> World:  # noqa: C901
    """Idempotent: users ``sim-<permit>`` and tokens for allowed drivers, demo ranks if none, a passenger pool."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from rest_framework.authtoken.models import Token

    from backend.ranks.demo import MURIAE_RANKS
    from backend.ranks.models import Rank
    from backend.ranks.services.ranks import create_rank
    from backend.registry.compliance import may_work
    from backend.registry.models import Auxiliary, Permit
    from backend.trips.models import Passenger
    from dispatch.rides.cabs import driven_permit

    User = get_user_model()
    world = World(cabs=[], ranks=[], passengers=[])
    with transaction.atomic():
        for permit in Permit.objects.filter(status=Permit.Status.ACTIVE).select_related("holder", "holder__user").order_by("number"):
            if len(world.cabs) >= max_cabs:
                break
            person, why = _driver_for(permit, may_work, Auxiliary)
            if person is None:
                world.skipped.append((permit.number, why))
                continue
            if person.user_id and person.user.username in reserved:
                world.skipped.append((permit.number, f"reservado para {person.user.username}"))
                continue
            if driven_permit(person) != permit:  # the driver would connect as another cab
                world.skipped.append((permit.number, "o motorista dirige outra permissão"))
                continue
            if person.user_id is None:
                user, _ = User.objects.get_or_create(username=f"{SIM_USER_PREFIX}{permit.number.lower()}",
                                                     defaults={"first_name": person.full_name[:150]})
                if not user.has_usable_password():
                    user.set_unusable_password()
                    user.save(update_fields=["password"])
                person.user = user
                person.save(update_fields=["user"])
            token, _ = Token.objects.get_or_create(user=person.user)
            world.cabs.append({"token": token.key, "permit": permit.number, "username": person.user.username})
        if not Rank.objects.filter(active=True).exists():
            for name, lat, lon, _category, _titulars in MURIAE_RANKS:  # without seed_demo's permits: free ranks
                create_rank(name=name, lat=lat, lon=lon, category="livre")
        world.ranks = [{"id": r.pk, "name": r.name, "lat": r.lat, "lon": r.lon}
                       for r in Rank.objects.filter(active=True, lat__range=(CENTRE[0] - 0.05, CENTRE[0] + 0.05),
                                                    lon__range=(CENTRE[1] - 0.05, CENTRE[1] + 0.05))]
        for n in range(1, passengers + 1):
            p, _ = Passenger.objects.get_or_create(phone=f"3290000{n:04d}", defaults={"name": f"Passageiro Simulado {n}"})
            world.passengers.append({"token": p.token, "name": p.name})
    return world
