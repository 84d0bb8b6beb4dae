"""Add to the e2e world an auxiliary on the first cab and the Pix keys of both partners.

Run as a script with the platform's environment after world.py; prints a JSON description on stdout.
"""

import json
import os
import sys
from datetime import timedelta

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.utils import timezone  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from validate_docbr import CNH, CPF  # noqa: E402

from backend.payments.services import register_pix_key  # noqa: E402
from backend.registry.models import Permit  # noqa: E402
from backend.registry.services import auxiliaries, people  # noqa: E402


def main(permit_id: int):
    today = timezone.localdate()
    permit = Permit.objects.select_related("holder").get(pk=permit_id)
    user = get_user_model().objects.create_user("auxiliar1", password="x")
    aux = people.register_person(full_name="Carlos Auxiliar", cpf=CPF().generate(), cnh=CNH().generate(), user=user)
    auxiliaries.authorize_auxiliary(permit=permit, person=aux, on=today - timedelta(days=20))
    auxiliaries.issue_cmt(person=aux, number="CMT-AUX1", issued_on=today - timedelta(days=20),
                          expires_on=today + timedelta(days=900))
    register_pix_key(aux, "email", "carlos.auxiliar@example.com")
    register_pix_key(permit.holder, "evp", "123e4567-e12b-12d1-a456-426655440000")
    print(json.dumps({"token": Token.objects.create(user=user).key, "person_id": aux.pk, "name": aux.full_name,
                      "holder_name": permit.holder.full_name}))


if __name__ == "__main__":
    main(int(sys.argv[1]))
