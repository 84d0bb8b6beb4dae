"""Art. 1, §6 on the auxiliary's authorization: a written contract (share, date, two witnesses) or the CTPS (no split)."""

import csv
import io
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client

from backend.registry.models import Auxiliary
from backend.registry.services import auxiliaries
from backend.statements import documents, services

from .statements_helpers import (
    AFTER_WEEK,
    AUTHORIZED_ON,
    MONDAY,
    NEXT_MONDAY,
    SIGNED_ON,
    local,
    ride,
    set_regime,
    statement,
)

CONTRACT = dict(split_regime="contract", contract_auxiliary_percent=Decimal("33.33"), contract_signed_on=date(2026, 1, 10),
                contract_witness_1="Ana Souza", contract_witness_2="Bruno Lima", contract_reference="Contrato 7/2026")
CTPS = dict(split_regime="ctps", ctps_number="1234567", ctps_series="0012-MG")


@pytest.fixture
def cab_with_aux(working_cab, make_person):
    permit = working_cab(signed_on=SIGNED_ON)
    aux = make_person()
    authorization = auxiliaries.authorize_auxiliary(permit=permit, person=aux, on=AUTHORIZED_ON)
    return permit, aux, authorization


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §6")
def test_written_contract_with_its_witnesses_sets_the_share_to_the_cent(cab_with_aux, user_for):
    permit, aux, authorization = cab_with_aux
    set_regime(authorization, **CONTRACT)
    ride(permit, aux, "100.00", local(MONDAY, 10))
    ride(permit, aux, "0.03", local(MONDAY, 11))
    services.close_week(MONDAY, now=AFTER_WEEK)
    s = statement(permit, aux)
    # 33,33% of 100,03 = 33,339999 -> 33,34; the holder gets the exact remainder
    assert (s.agreement, s.auxiliary_percent, s.auxiliary_part, s.holder_part) == (
        "contract", Decimal("33.33"), Decimal("33.34"), Decimal("66.69"))
    assert s.auxiliary_part + s.holder_part == s.gross == Decimal("100.03")
    assert s.contract_signed_on == date(2026, 1, 10) and s.contract_witnesses == ["Ana Souza", "Bruno Lima"]
    label = documents.split_label(s)
    assert "Contrato escrito (Art. 1, §6): auxiliar 33,33% / permissionário 66,67%" in label
    assert "assinado em 10/01/2026" in label and "testemunhas: Ana Souza e Bruno Lima" in label
    body = user_for(aux).get(f"/api/statements/{s.pk}/").json()
    assert body["contract_signed_on"] == "2026-01-10" and body["contract_witnesses"] == ["Ana Souza", "Bruno Lima"]
    assert body["no_split"] is False and "Ana Souza" in body["split_label"]


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §6")
def test_a_contract_does_not_reach_back_before_its_date(cab_with_aux):
    permit, aux, authorization = cab_with_aux
    set_regime(authorization, **{**CONTRACT, "contract_signed_on": NEXT_MONDAY + timedelta(days=2)})
    ride(permit, aux, "100.00", local(MONDAY, 10))
    ride(permit, aux, "100.00", local(NEXT_MONDAY, 10))
    services.close_week(MONDAY, now=AFTER_WEEK)
    services.close_week(NEXT_MONDAY, now=AFTER_WEEK + timedelta(days=7))
    before, signed = statement(permit, aux), statement(permit, aux, NEXT_MONDAY)
    assert (before.agreement, before.auxiliary_part) == ("law", Decimal("25.00"))
    assert (signed.agreement, signed.auxiliary_part) == ("contract", Decimal("33.33"))


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §6")
def test_ctps_employee_gets_no_split_and_the_statement_says_so(cab_with_aux, user_for):
    permit, aux, authorization = cab_with_aux
    set_regime(authorization, **CTPS)
    ride(permit, aux, "100.01", local(MONDAY, 10))
    services.close_week(MONDAY, now=AFTER_WEEK)
    s = statement(permit, aux)
    assert (s.role, s.agreement, s.no_split) == ("auxiliar", "ctps", True)
    assert (s.auxiliary_percent, s.auxiliary_part, s.holder_part) == (Decimal("0.00"), Decimal("0.00"), Decimal("100.01"))
    assert (s.ctps_number, s.ctps_series) == ("1234567", "0012-MG")
    assert "CTPS nº 1234567, série 0012-MG (Art. 1, §6)" in documents.split_label(s)
    lines = dict(documents.lines(s))
    assert lines["Parte do auxiliar"] == "não se aplica (empregado com CTPS)"

    client = user_for(aux)
    body = client.get(f"/api/statements/{s.pk}/").json()
    assert body["agreement"] == "ctps" and body["no_split"] is True
    assert (body["ctps_number"], body["ctps_series"]) == ("1234567", "0012-MG")
    assert "emprego com CTPS" in body["agreement_display"]
    [row] = [r for r in csv.DictReader(io.StringIO(client.get(f"/api/statements/{s.pk}.csv").content.decode("utf-8-sig")),
                                       delimiter=";") if r["linha"] == "semana"]
    assert (row["ctps_numero"], row["ctps_serie"], row["parte_auxiliar"]) == ("1234567", "0012-MG", "0,00")
    assert client.get(f"/statements/{s.pk}.pdf").content.startswith(b"%PDF")
    running = services.running_statement(permit, aux, now=local(NEXT_MONDAY, 12))
    assert running.agreement == "ctps" and running.no_split

    user = Client()
    user.force_login(aux.user)
    html = user.get("/extratos/").content.decode()
    assert "CTPS nº 1234567" in html and "não se aplica (empregado com CTPS)" in html


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §6")
def test_the_regime_is_checked_field_by_field(cab_with_aux):
    _, _, authorization = cab_with_aux

    def errors(**fields):
        fresh = Auxiliary.objects.get(pk=authorization.pk)
        with pytest.raises(ValidationError) as exc:
            set_regime(fresh, **fields)
        return exc.value.message_dict

    assert set(errors(split_regime="contract")) == {
        "contract_auxiliary_percent", "contract_signed_on", "contract_witness_1", "contract_witness_2"}
    assert set(errors(**{**CONTRACT, "contract_auxiliary_percent": Decimal("100")})) == {"contract_auxiliary_percent"}
    assert set(errors(**{**CONTRACT, "contract_auxiliary_percent": Decimal("0")})) == {"contract_auxiliary_percent"}
    same = errors(**{**CONTRACT, "contract_witness_2": " ana  souza "})
    assert same == {"contract_witness_2": ["As duas testemunhas do contrato devem ser pessoas diferentes."]}
    assert set(errors(split_regime="ctps")) == {"ctps_number", "ctps_series"}
    assert set(errors(split_regime="ctps", ctps_number="1", ctps_series="2", contract_auxiliary_percent=Decimal("30"))) == {
        "contract_auxiliary_percent"}
    assert set(errors(split_regime="law", ctps_number="1")) == {"ctps_number"}
    assert "maior que 0 e menor que 100" in errors(**{**CONTRACT, "contract_auxiliary_percent": Decimal("100")})[
        "contract_auxiliary_percent"][0]
    set_regime(Auxiliary.objects.get(pk=authorization.pk), **CONTRACT)  # complete: accepted


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §6")
def test_a_percentage_registered_with_its_reference_is_not_judged_again_until_changed(cab_with_aux, make_person):
    permit, _, _ = cab_with_aux
    legacy = auxiliaries.authorize_auxiliary(permit=permit, person=make_person(), on=AUTHORIZED_ON,
                                             contract_auxiliary_percent=Decimal("30"), contract_reference="Contrato 3/2026")
    assert (legacy.split_regime, legacy.regime) == ("law", "contract")
    legacy.cancel_reason = "outro dado qualquer"
    legacy.full_clean()  # editing something else in the admin stays possible
    legacy.contract_witness_1 = "Ana Souza"
    with pytest.raises(ValidationError) as exc:
        legacy.full_clean()  # touching the regime: the whole §6 record is checked
    assert set(exc.value.message_dict) == {"contract_auxiliary_percent", "split_regime"}
    assert "só se informam no regime de contrato escrito" in exc.value.message_dict["split_regime"][0]


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §6")
def test_admin_records_the_regime_with_field_errors(cab_with_aux):
    permit, aux, authorization = cab_with_aux
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("chefe", "c@example.com", "x"))
    url = f"/admin/registry/auxiliary/{authorization.pk}/change/"
    assert client.get(url).status_code == 200
    form = {"permit": permit.pk, "person": aux.pk, "authorized_on": AUTHORIZED_ON.isoformat(), "status": "active", "pix_receiver": "driver",
            "cancelled_on": "", "cancel_reason": "", "split_regime": "contract", "contract_auxiliary_percent": "30",
            "contract_signed_on": "2026-01-10", "contract_witness_1": "Ana Souza", "contract_witness_2": "",
            "contract_reference": "", "ctps_number": "", "ctps_series": ""}
    refused = client.post(url, form)
    assert refused.status_code == 200 and "informe o nome da 2ª" in refused.content.decode()
    assert Auxiliary.objects.get(pk=authorization.pk).split_regime == "law"
    assert client.post(url, {**form, "contract_witness_2": "Bruno Lima"}).status_code == 302
    saved = Auxiliary.objects.get(pk=authorization.pk)
    assert (saved.split_regime, saved.contract_auxiliary_percent, saved.contract_witness_2) == (
        "contract", Decimal("30.00"), "Bruno Lima")


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §6")
def test_registry_api_shows_the_regime_and_refuses_a_share_of_0_or_100(cab_with_aux, working_cab, make_person, dimutran):
    permit, aux, authorization = cab_with_aux
    set_regime(authorization, **CTPS)
    body = dimutran.get(f"/api/auxiliaries/{authorization.pk}/").json()
    assert (body["split_regime"], body["ctps_number"], body["ctps_series"]) == ("ctps", "1234567", "0012-MG")
    other = working_cab(signed_on=SIGNED_ON)
    for pct in ("100", "0"):
        response = dimutran.post("/api/auxiliaries/", {"permit": other.pk, "person": make_person().pk,
                                                       "contract_auxiliary_percent": pct,
                                                       "contract_reference": "Contrato 1/2026"}, format="json")
        assert response.status_code == 400
        assert "maior que 0 e menor que 100" in response.json()["contract_auxiliary_percent"][0]
    created = dimutran.post("/api/auxiliaries/", {"permit": other.pk, "person": make_person().pk,
                                                  "contract_auxiliary_percent": "30",
                                                  "contract_reference": "Contrato 1/2026"}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["split_regime"] == "contract"  # a percentage registered with its contract's reference
