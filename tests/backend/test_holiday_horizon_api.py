"""The server's config answer says which period its municipal holidays cover: the phone's horizon (Art. 45, II;
docs/readings-tariffs.md). DIMUTRAN's table is the only source; nothing past the period is sent."""

from datetime import date

import pytest

from backend.parameters.models import MunicipalHoliday

pytestmark = pytest.mark.django_db


@pytest.mark.article("Art. 45, II")
def test_the_answer_carries_the_calendar_and_its_horizon(dimutran):
    MunicipalHoliday.objects.create(date=date(2000, 6, 29), name="São Paulo Apóstolo", every_year=True, source="teste")
    MunicipalHoliday.objects.create(date=date(2031, 3, 2), name="Centenário (teste)", source="teste")
    meter = dimutran.get("/api/tariffs/current/", {"at": "2028-05-10T12:00:00-03:00"}).json()["meter"]
    assert meter["holidays_from"] == "2027-01-01" and meter["holidays_until"] == "2029-12-31"
    assert {"2027-06-29", "2028-06-29", "2029-06-29"} <= set(meter["holidays"])
    assert all(meter["holidays_from"] <= day <= meter["holidays_until"] for day in meter["holidays"])
    assert "2031-03-02" not in meter["holidays"]  # past the period answered for
