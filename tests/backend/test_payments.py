"""The payment of each ride: Pix keys, the method recorded once, who received it, and closed weeks untouched.

Lei 1.242/1987 Art. 43 (the fare is the meter's total) and Art. 1, §3-§6 (the week's settlement follows who
received each fare); docs/payments.md.
"""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from backend.payments.models import PixKey, RidePayment
from backend.payments.services import register_pix_key
from backend.registry.models import Auxiliary
from backend.statements import services
from backend.trips.models import Passenger
from taxilaw import pix

from .statements_helpers import AFTER_WEEK, MONDAY, NEXT_MONDAY, cab_with_aux, local, ride, statement  # noqa: F401

HOLDER_KEY = "11.222.333/0001-81"
AUX_PHONE = "(32) 99999-1234"


@pytest.fixture
def keyed(cab_with_aux):  # noqa: F811 (the imported fixture)
    permit, holder, aux = cab_with_aux
    register_pix_key(holder, "cnpj", HOLDER_KEY)
    register_pix_key(aux, "phone", AUX_PHONE)
    return permit, holder, aux


def pay(client, ride_id, method, **extra):
    return client.post(f"/api/rides/{ride_id}/payment/", {"method": method, **extra}, format="json")


@pytest.mark.django_db
def test_pix_key_is_validated_by_kind_and_normalised(make_person, user_for):
    person = make_person()
    client = user_for(person)
    bad = client.put("/api/me/pix-key/", {"kind": "cpf", "key": "123.456.789-00"}, format="json")
    assert bad.status_code == 400 and "dígitos verificadores" in bad.json()["key"][0]
    bad = client.put("/api/me/pix-key/", {"kind": "email", "key": "fulano@"}, format="json")
    assert bad.status_code == 400 and "E-mail inválido" in bad.json()["key"][0]
    ok = client.put("/api/me/pix-key/", {"kind": "phone", "key": "(32) 98888-0000"}, format="json")
    assert ok.status_code == 200 and ok.json()["key"] == "+5532988880000"
    assert client.get("/api/me/pix-key/").json()["kind_display"] == "celular"
    assert client.delete("/api/me/pix-key/").status_code == 204 and not PixKey.objects.filter(person=person).exists()


@pytest.mark.django_db
@pytest.mark.article("Art. 43", "Art. 1, §3")
def test_pix_goes_to_the_key_the_authorization_names(keyed, user_for, dimutran):
    permit, holder, aux = keyed
    client = user_for(aux)
    first = ride(permit, aux, "20.00", local(MONDAY, 9))
    answer = pay(client, first.pk, "pix")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert (body["method"], body["collector"], body["receiver"]) == ("pix", "auxiliary", aux.full_name)
    fields = pix.parse(body["pix"])
    assert pix.parse_fields(fields["26"])["01"] == "+5532999991234" and fields["54"] == "20.00"
    # DIMUTRAN changes the term: from now on the holder's key receives the auxiliary's fares
    authorization = Auxiliary.objects.get(permit=permit, person=aux)
    changed = dimutran.post(f"/api/auxiliaries/{authorization.pk}/pix-receiver/", {"pix_receiver": "holder"}, format="json")
    assert changed.status_code == 200 and changed.json()["pix_receiver"] == "holder"
    second = ride(permit, aux, "30.00", local(MONDAY, 10))
    charge = client.get(f"/api/rides/{second.pk}/pix/").json()
    assert charge["key"] == "11222333000181" and charge["receiver"] == holder.full_name
    assert pay(client, second.pk, "pix").json()["collector"] == "holder"
    # the first payment was recorded under the old term and keeps it
    assert RidePayment.objects.get(ride=first).collector == "auxiliary"


@pytest.mark.django_db
@pytest.mark.article("Art. 43")
def test_bad_payments_get_a_portuguese_refusal(keyed, user_for, make_person):
    permit, holder, aux = keyed
    client = user_for(aux)
    done = ride(permit, aux, "12.00", local(MONDAY, 9))
    assert pay(client, done.pk, "pix").status_code == 201
    twice = pay(client, done.pk, "cash")
    assert twice.status_code == 400 and twice.json()["reasons"][0]["code"] == "payment_already_recorded"
    assert "duas vezes" in twice.json()["detail"]
    unknown = pay(client, ride(permit, aux, "5.00", local(MONDAY, 10)).pk, "cheque")
    assert unknown.status_code == 400 and "method" in unknown.json()
    open_ride = ride(permit, aux, "5.00", local(MONDAY, 11), status="on_board")
    refused = pay(client, open_ride.pk, "cash")
    assert refused.status_code == 400 and refused.json()["reasons"][0]["code"] == "payment_ride_not_completed"
    free = ride(permit, aux, "0.00", local(MONDAY, 12))
    assert pay(client, free.pk, "pix").json()["reasons"][0]["code"] == "payment_no_fare"
    PixKey.objects.filter(person=aux).delete()
    no_key = pay(client, ride(permit, aux, "9.00", local(MONDAY, 13)).pk, "pix")
    assert no_key.json()["reasons"][0]["code"] == "payment_no_pix_key" and "chave Pix" in no_key.json()["detail"]
    stranger = user_for(make_person())
    assert pay(stranger, done.pk, "cash").status_code == 404
    assert pay(APIClient(), done.pk, "cash").status_code in (401, 403)


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_a_counted_ride_cannot_be_paid_and_the_closed_settlement_stays(keyed, user_for):
    permit, holder, aux = keyed
    client = user_for(aux)
    counted = ride(permit, aux, "100.00", local(MONDAY, 9))
    services.close_week(MONDAY, now=AFTER_WEEK)
    closed = statement(permit, aux)
    before = closed.settlement
    late = pay(client, counted.pk, "pix")
    assert late.status_code == 400 and late.json()["reasons"][0]["code"] == "payment_week_closed"
    closed.refresh_from_db()
    assert closed.settlement == before
    assert (before.payer, before.amount) == ("auxiliary", Decimal("75.00"))
    assert closed.ride_lines[0].method == "unrecorded"


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_a_late_ride_paid_by_pix_to_the_holder_is_carried_with_its_payment(keyed, user_for):
    permit, holder, aux = keyed
    Auxiliary.objects.filter(permit=permit, person=aux).update(pix_receiver="holder")
    client = user_for(aux)
    ride(permit, aux, "40.00", local(MONDAY, 9))
    services.close_week(MONDAY, now=AFTER_WEEK)
    late = ride(permit, aux, "60.00", local(MONDAY, 20))  # synced after the closing
    assert pay(client, late.pk, "pix").status_code == 201
    running = services.running_statement(permit, aux, now=local(NEXT_MONDAY, 12))
    assert running.settlement.received("holder", "pix") == Decimal("60.00")
    services.close_week(NEXT_MONDAY, now=AFTER_WEEK.replace(day=30))
    nxt = statement(permit, aux, NEXT_MONDAY)
    s = nxt.settlement
    # the late 60,00 is split as its week's (25%: 15,00 to the auxiliary, after 10,00 of 40,00), received by the holder
    assert (nxt.total_auxiliary_part, nxt.total_holder_part) == (Decimal("15.00"), Decimal("45.00"))
    assert (s.payer, s.payee, s.amount) == ("holder", "auxiliary", Decimal("15.00"))
    [line] = nxt.ride_lines
    assert (line.method, line.collector, line.late) == ("pix", "holder", True)


@pytest.mark.django_db
def test_the_passenger_reads_the_payment_with_their_token(keyed, user_for):
    permit, holder, aux = keyed
    passenger = Passenger.objects.create(name="Ana", phone="32999990000", token="t" * 40)
    Passenger.objects.create(name="Bia", phone="32999990001", token="b" * 40)
    done = ride(permit, aux, "18.50", local(MONDAY, 9))
    done.passenger = passenger
    done.save(update_fields=["passenger"])
    ana, bia, anonymous = APIClient(), APIClient(), APIClient()
    ana.credentials(HTTP_AUTHORIZATION="Passenger " + "t" * 40)
    bia.credentials(HTTP_AUTHORIZATION="Passenger " + "b" * 40)
    assert ana.get(f"/api/rides/{done.pk}/payment/").status_code == 404  # not paid yet
    pay(user_for(aux), done.pk, "pix")
    body = ana.get(f"/api/rides/{done.pk}/payment/").json()
    assert body["method_display"] == "Pix" and pix.parse(body["pix"])["54"] == "18.50"
    assert pix.parse(ana.get(f"/api/rides/{done.pk}/pix/").json()["payload"])["54"] == "18.50"
    assert bia.get(f"/api/rides/{done.pk}/payment/").status_code == 404  # another passenger's ride does not exist
    assert bia.get(f"/api/rides/{done.pk}/pix/").status_code == 404
    assert anonymous.get(f"/api/rides/{done.pk}/payment/").status_code == 404
    assert pay(ana, done.pk, "cash").status_code == 404  # only the ride's driver records how it was paid
    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION="Passenger " + "x" * 40)
    assert forged.get(f"/api/rides/{done.pk}/payment/").status_code == 401


@pytest.mark.django_db
def test_the_app_learns_whose_key_receives_its_fares(keyed, user_for):
    permit, holder, aux = keyed
    client = user_for(aux)
    terms = client.get("/api/me/pix-terms/").json()
    assert (terms["key"], terms["receiver"], terms["receiver_is_holder"]) == ("+5532999991234", aux.full_name, False)
    Auxiliary.objects.filter(permit=permit, person=aux).update(pix_receiver="holder")
    terms = client.get("/api/me/pix-terms/").json()
    assert (terms["key"], terms["receiver"], terms["receiver_is_holder"]) == ("11222333000181", holder.full_name, True)


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3", "Art. 43")
def test_the_closed_statement_lists_its_rides_and_settles_the_week_in_every_document(keyed, user_for, tmp_path):
    import shutil
    import subprocess

    from backend.statements import documents

    permit, holder, aux = keyed
    client = user_for(aux)
    by_pix = ride(permit, aux, "40.00", local(MONDAY, 9))
    on_card = ride(permit, aux, "60.00", local(MONDAY + timedelta(days=1), 18))
    on_card.server_total, on_card.meter_disagreement = Decimal("52.10"), True
    on_card.save(update_fields=["server_total", "meter_disagreement"])
    ride(permit, aux, "5.00", local(MONDAY + timedelta(days=2), 7))  # never paid: in the driver's hand
    assert pay(client, by_pix.pk, "pix").status_code == 201
    assert pay(client, on_card.pk, "card", card_machine="holder").status_code == 201
    services.close_week(MONDAY, now=AFTER_WEEK)
    closed = statement(permit, aux)
    # gross 105,00: the auxiliary's 26,25; he received 45,00 (Pix 40,00 + 5,00 unrecorded): he pays 18,75
    lines = dict(documents.lines(closed))
    assert lines["Recebido pelo auxiliar"] == "R$ 45,00 (Pix R$ 40,00; não informado R$ 5,00)"
    assert lines["Recebido pelo permissionário"] == "R$ 60,00 (cartão R$ 60,00)"
    assert lines["Acerto da semana"] == f"{aux.full_name} paga R$ 18,75 a {holder.full_name}"
    rows = documents.ride_rows(closed)
    assert [r["payment"] for r in rows] == ["Pix (recebido pelo auxiliar)", "cartão (recebido pelo permissionário)",
                                           "não informado (em mãos do motorista)"]
    assert rows[1]["disagreement"] == "taxímetro R$ 60,00; recálculo R$ 52,10" and rows[1]["recomputed"] == "R$ 52,10 (diverge)"
    body = client.get(f"/api/statements/{closed.pk}/").json()
    assert body["settlement"]["amount"] == "18.75" and body["transfer_label"] == lines["Acerto da semana"]
    assert [r["method"] for r in body["ride_lines"]] == ["pix", "card", "unrecorded"]
    pdf = tmp_path / "statement.pdf"
    pdf.write_bytes(documents.statement_pdf(closed))
    assert shutil.which("pdftotext"), "poppler-utils is needed (Makefile SYSTEM_PACKAGES)"
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "paga R$ 18,75" in text and "R$ 52,10 (diverge)" in text and "cartão (permissionário)" in text


@pytest.mark.django_db(transaction=True)
@pytest.mark.article("Art. 43")
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs row locks across connections (PostgreSQL); CI runs it there")
def test_two_recordings_at_once_one_wins_the_other_is_told(working_cab, make_person):
    import threading

    from backend.api_errors import LawViolation
    from backend.payments.services import record_payment

    permit = working_cab()
    driver = permit.holder
    done = ride(permit, driver, "30.00", local(MONDAY, 9))
    barrier = threading.Barrier(4)
    outcomes = []

    def record(method):
        try:
            barrier.wait()
            record_payment(done.pk, driver, method)
            outcomes.append("recorded")
        except LawViolation as refusal:
            outcomes.append(refusal.reasons[0]["code"])
        finally:
            connections.close_all()

    threads = [threading.Thread(target=record, args=(m,)) for m in ("cash", "card", "cash", "card")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["payment_already_recorded"] * 3 + ["recorded"]
    assert RidePayment.objects.filter(ride=done).count() == 1
