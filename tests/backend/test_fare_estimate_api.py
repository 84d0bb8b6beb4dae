"""POST /api/fare-estimate/: the range of fares before asking for a taxi (Art. 43, Art. 45)."""

import pytest

pytestmark = pytest.mark.django_db

from backend.parameters.models import DatedParameter

URL = "/api/fare-estimate/"
PRACA, RODOVIARIA = {"lat": -21.1311, "lon": -42.3676}, {"lat": -21.1283, "lon": -42.3712}


@pytest.mark.article("Art. 45, I")
def test_anyone_gets_a_range_with_the_flag_and_the_tariff(anonymous):
    r = anonymous.post(URL, {"origin": PRACA, "destination": RODOVIARIA, "at": "2026-03-04T10:00:00-03:00"}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["flag"] == 1 and body["flag_label"] == "dia útil, 06:00–22:00"
    assert body["low_display"].startswith("R$ ") and float(body["low"]) < float(body["high"])
    assert "taxímetro" in body["notice"]


@pytest.mark.article("Art. 45, II")
def test_sunday_is_dearer_and_dimutran_changes_the_detour_factor(anonymous):
    def ask(at):
        return anonymous.post(URL, {"origin": PRACA, "destination": RODOVIARIA, "at": at}, format="json").json()

    weekday, sunday = ask("2026-03-04T10:00:00-03:00"), ask("2026-03-08T10:00:00-03:00")
    assert sunday["flag"] == 2 and float(sunday["high"]) > float(weekday["high"])
    DatedParameter.objects.create(name="fare_estimate_detour_high", effective_from="2026-03-01", value="3.00", source="test")
    assert float(ask("2026-03-04T10:00:00-03:00")["high"]) > float(weekday["high"])


@pytest.mark.article("Art. 45")
@pytest.mark.parametrize("body, field", [
    ({"origin": {"lat": -23.55, "lon": -46.63}, "destination": RODOVIARIA}, "origin"),  # São Paulo
    ({"origin": PRACA, "destination": {"lat": -19.9, "lon": -43.9}}, "destination"),  # Belo Horizonte
    ({"origin": {"lat": 95, "lon": 0}, "destination": RODOVIARIA}, "origin"),
    ({"origin": PRACA}, "destination"),
    ({"origin": PRACA, "destination": RODOVIARIA, "at": "2026-03-04T10:00:00"}, "at"),
])
def test_bad_input_is_a_400_naming_the_field(anonymous, body, field):
    r = anonymous.post(URL, body, format="json")
    assert r.status_code == 400 and field in r.json(), r.content
