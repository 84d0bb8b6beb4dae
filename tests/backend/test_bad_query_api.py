"""Bad ids, filters and page sizes (issue 14): a 400 naming the field or a 404, never a 500."""

import pytest

from .ranks_helpers import make_rank

pytestmark = pytest.mark.django_db

HUGE = "99999999999999999999"  # 10**20: beyond any database integer

BAD = [
    "/api/autos/abc/deadlines/",
    "/api/autos/²/",
    f"/api/permits/{HUGE}/",
    f"/api/permits/1/compliance/{HUGE}/",
    "/api/rank-checkins/?rank=abc",
    "/api/rank-checkins/?rank=²",
    "/api/absence-justifications/?permit=abc",
    "/api/absence-justifications/?permit=²",
    f"/api/absence-justifications/?permit={HUGE}",
    "/api/statements/?permit=²",
    f"/api/statements/?driver={HUGE}",
    f"/api/statements/{HUGE}/",
]


@pytest.mark.parametrize("url", BAD)
def test_bad_ids_and_filters_are_a_400_or_404(dimutran, url):
    response = dimutran.get(url)
    assert response.status_code in (400, 404), (url, response.status_code, response.content[:300])


def test_a_bad_filter_names_its_field(dimutran):
    body = dimutran.get("/api/absence-justifications/?permit=²").json()
    assert body["permit"] == ["Informe um número inteiro."]


def test_a_month_beyond_the_calendar_is_a_400(dimutran):
    rank = make_rank(dimutran)
    for query in (f"year={10**20}", "year=abc", "month=13", "month=²"):
        response = dimutran.get(f"/api/ranks/{rank['id']}/absence/?{query}")
        assert response.status_code == 400, (query, response.content[:300])


@pytest.mark.parametrize("query", [f"limit={HUGE}", f"offset={HUGE}", "limit=²", "offset=-1"])
def test_pages_are_bounded(dimutran, query):
    response = dimutran.get(f"/api/permits/?{query}")
    assert response.status_code == 200


def test_the_page_size_is_capped(dimutran, working_cab):
    from backend.api.pagination import MAX_LIMIT, BoundedLimitOffsetPagination

    assert BoundedLimitOffsetPagination.max_limit == MAX_LIMIT == 500
    working_cab()
    assert dimutran.get(f"/api/permits/?limit={HUGE}").json()["count"] == 1


def test_text_longer_than_its_column_is_a_field_400_before_the_database(dimutran):
    """On PostgreSQL a too-long varchar raises; the serializer refuses it first, naming the field."""
    response = dimutran.post("/api/autos/", {"place": "x" * 201, "observation": "fatos"}, format="json")
    assert response.status_code == 400 and "place" in response.json()
