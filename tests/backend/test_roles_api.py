"""Who reads what: a role x endpoint matrix. Nobody reads another's data."""

from datetime import timedelta

import pytest

from backend.registry.services import auxiliaries

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(working_cab, make_person, user_for, dimutran, anonymous, today):
    mine, theirs = working_cab(), working_cab()
    aux_person = make_person()
    aux = auxiliaries.authorize_auxiliary(permit=mine, person=aux_person, on=today)
    auxiliaries.issue_cmt(person=aux_person, number="CMT-AUX", issued_on=today, expires_on=today + timedelta(days=365))
    return {
        "permits": (mine, theirs),
        "auxiliary": aux,
        "clients": {
            "dimutran": dimutran,
            "holder": user_for(mine.holder),
            "other_holder": user_for(theirs.holder),
            "auxiliary": user_for(aux_person),
            "anonymous": anonymous,
        },
    }


def ids(response):
    return sorted(item["id"] for item in response.json()["results"])


# (endpoint, role) -> which of ("mine", "theirs") the role sees in the list; None = refused.
MATRIX = {
    "/api/permits/": {"dimutran": {"mine", "theirs"}, "holder": {"mine"}, "other_holder": {"theirs"}, "auxiliary": set(), "anonymous": None},
    "/api/vehicles/": {"dimutran": {"mine", "theirs"}, "holder": {"mine"}, "other_holder": {"theirs"}, "auxiliary": set(), "anonymous": None},
    "/api/inspections/": {"dimutran": {"mine", "theirs"}, "holder": {"mine"}, "other_holder": {"theirs"}, "auxiliary": set(), "anonymous": None},
    "/api/people/": {"dimutran": "all", "holder": None, "other_holder": None, "auxiliary": None, "anonymous": None},
    "/api/parameters/": {"dimutran": "all", "holder": None, "other_holder": None, "auxiliary": None, "anonymous": None},
}


def _expected_ids(world, endpoint, which):
    mine, theirs = world["permits"]
    pick = {"mine": mine, "theirs": theirs}
    if endpoint == "/api/permits/":
        return sorted(pick[w].pk for w in which)
    if endpoint == "/api/vehicles/":
        return sorted(pick[w].vehicles.get().pk for w in which)
    return sorted(pick[w].vehicles.get().inspections.get().pk for w in which)


@pytest.mark.article("Art. 52")
@pytest.mark.parametrize("endpoint", list(MATRIX))
@pytest.mark.parametrize("role", ["dimutran", "holder", "other_holder", "auxiliary", "anonymous"])
def test_list_visibility(world, endpoint, role):
    expected = MATRIX[endpoint][role]
    response = world["clients"][role].get(endpoint)
    if expected is None:
        assert response.status_code in (401, 403)
        return
    assert response.status_code == 200
    if expected != "all":
        assert ids(response) == _expected_ids(world, endpoint, expected)


@pytest.mark.parametrize("role", ["holder", "auxiliary", "anonymous"])
def test_detail_of_another_permit_is_not_found(world, role):
    _, theirs = world["permits"]
    response = world["clients"][role].get(f"/api/permits/{theirs.pk}/")
    assert response.status_code in (401, 403, 404)


@pytest.mark.parametrize("role", ["holder", "other_holder", "auxiliary"])
@pytest.mark.parametrize(
    "endpoint", ["/api/permits/", "/api/people/", "/api/vehicles/", "/api/inspections/", "/api/auxiliaries/", "/api/cmts/", "/api/suspensions/"]
)
def test_only_dimutran_writes(world, role, endpoint):
    response = world["clients"][role].post(endpoint, {}, format="json")
    assert response.status_code == 403


@pytest.mark.article("Art. 51", "Art. 32")
def test_driver_reads_only_their_own_cmt(world):
    response = world["clients"]["auxiliary"].get("/api/cmts/")
    assert [c["number"] for c in response.json()["results"]] == ["CMT-AUX"]


@pytest.mark.article("Art. 32", "Art. 51", "Art. 1, IV")
def test_me_shows_the_auxiliarys_cmt_cvi_and_compliance(world):
    mine, _ = world["permits"]
    body = world["clients"]["auxiliary"].get("/api/me/").json()
    assert body["cmt"]["number"] == "CMT-AUX" and body["cmt"]["role"] == "auxiliar" and body["cmt"]["permit"] == mine.number
    assert body["cvi"]["plate"] == mine.vehicles.get().plate
    assert body["compliance"]["allowed"] is True


def test_holder_reads_own_auxiliaries_only(world):
    response = world["clients"]["holder"].get("/api/auxiliaries/")
    assert [a["id"] for a in response.json()["results"]] == [world["auxiliary"].pk]
    assert world["clients"]["other_holder"].get("/api/auxiliaries/").json()["results"] == []


def test_compliance_of_another_permit_is_hidden(world):
    mine, theirs = world["permits"]
    response = world["clients"]["holder"].get(f"/api/permits/{theirs.pk}/compliance/{theirs.holder_id}/")
    assert response.status_code == 404
    response = world["clients"]["holder"].get(f"/api/permits/{mine.pk}/compliance/{mine.holder_id}/")
    assert response.status_code == 200 and response.json()["allowed"] is True


@pytest.mark.article("Art. 51")
def test_compliance_of_own_permit_answers_only_about_its_people(world, make_person):
    """A holder asking about anyone else (another holder, an unrelated person) learns nothing, not even a name."""
    mine, theirs = world["permits"]
    holder, aux = world["clients"]["holder"], world["auxiliary"]
    assert holder.get(f"/api/permits/{mine.pk}/compliance/{aux.person_id}/").status_code == 200
    stranger = make_person()
    for person_id in (theirs.holder_id, stranger.pk):
        response = holder.get(f"/api/permits/{mine.pk}/compliance/{person_id}/")
        assert response.status_code == 404
        assert stranger.full_name not in response.content.decode() and theirs.holder.full_name not in response.content.decode()
    assert world["clients"]["dimutran"].get(f"/api/permits/{mine.pk}/compliance/{stranger.pk}/").status_code == 200


@pytest.mark.article("Art. 45, II")
def test_every_user_reads_the_municipal_holidays_only_dimutran_edits(world):
    holder = world["clients"]["holder"]
    assert holder.get("/api/municipal-holidays/").status_code == 200
    assert holder.post("/api/municipal-holidays/", {"date": "2026-06-29", "name": "x"}, format="json").status_code == 403
    assert world["clients"]["anonymous"].get("/api/municipal-holidays/").status_code in (401, 403)
