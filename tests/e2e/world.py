"""Build a small Muriaé for the end-to-end tests, in the database named by the environment.

Run as a script with DJANGO_SETTINGS_MODULE and DATABASE_URL set (after
migrate); prints a JSON description (tokens, permits, ranks) on stdout.
"""

import json
import os
from datetime import timedelta

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.utils import timezone  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from validate_docbr import CNH, CPF, RENAVAM  # noqa: E402

from backend.ranks.services.ranks import create_rank  # noqa: E402
from backend.registry.models import Inspection  # noqa: E402
from backend.registry.services import auxiliaries, people, permits, taximeters, vehicles  # noqa: E402
from backend.trips.models import Passenger  # noqa: E402
from taxilaw.inspection_items import approved_vistoria  # noqa: E402

CENTRE = (-21.1311, -42.3676)  # Praça Cel. Pacheco de Medeiros


def cab(n: int, today):
    User = get_user_model()
    user = User.objects.create_user(f"driver{n}", password="x")
    person = people.register_person(full_name=f"Motorista {n}", cpf=CPF().generate(), cnh=CNH().generate(), user=user)
    signed = today - timedelta(days=30)
    permit = permits.grant_permit(person=person, number=f"E2E-{n:03d}", result_published_on=signed, on=signed)
    permits.sign_term(permit=permit, signed_on=signed)
    vehicle = vehicles.register_vehicle(
        permit=permit, on=signed, plate=f"RQE{n % 10}A{10 + n}", renavam=RENAVAM().generate(), make="Fiat", model="Cronos",
        model_year=today.year, manufacture_year=today.year, colour="branco",
    )
    vehicles.record_inspection(vehicle=vehicle, inspected_on=signed, result=Inspection.Result.PASSED, seal_number=f"S{n}", **approved_vistoria())
    taximeters.equip_afered(vehicle, installed_on=signed, serial=f"E2E-{n}")
    auxiliaries.issue_cmt(person=person, number=f"CMT-E{n}", issued_on=signed, expires_on=signed + timedelta(days=900))
    return {"token": Token.objects.create(user=user).key, "permit_id": permit.pk, "permit": permit.number, "person_id": person.pk}


def session_of(user) -> SessionStore:
    session = SessionStore()
    session.update({"_auth_user_id": str(user.pk), "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
                    "_auth_user_hash": user.get_session_auth_hash()})
    session.create()
    return session


def main():
    today = timezone.localdate()
    cabs = [cab(n, today) for n in range(1, int(os.environ.get("E2E_CABS", "4")) + 1)]
    rank = create_rank(name="Praça Cel. Pacheco de Medeiros", lat=CENTRE[0], lon=CENTRE[1], category="livre")
    staff = get_user_model().objects.create_user("operador", password="operador123", is_staff=True)
    session = session_of(staff)
    superuser = get_user_model().objects.create_superuser("dimutran-e2e", password="dimutran123")
    passenger = Passenger.objects.create(name="Ana Passageira", phone="32999991234")
    other = Passenger.objects.create(name="Outro Passageiro", phone="32999995678")
    print(json.dumps({
        "cabs": cabs, "rank_id": rank.pk, "centre": CENTRE, "operator": {"session": session.session_key, "token": Token.objects.create(user=staff).key},
        "admin": {"session": session_of(superuser).session_key},
        "passenger_token": passenger.token, "other_passenger_token": other.token,
    }))


if __name__ == "__main__":
    main()
