"""Django's own errors (issue 34): JSON under /api/ for API clients, pt-BR pages elsewhere, and a 500 page that
promises only what is configured (DEBUG off, as in tests)."""

import pytest

pytestmark = pytest.mark.django_db


def test_an_unknown_api_address_is_a_json_404(client):
    answer = client.get("/api/nao-existe/")
    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"
    assert answer.json() == {"detail": "Endereço da API não encontrado."}


def test_a_page_404_stays_a_portuguese_page(client):
    page = client.get("/nao-existe/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")
    assert "Página não encontrada" in page.content.decode()


def test_a_server_error_under_the_api_is_json(client, settings):
    settings.ROOT_URLCONF = "tests.backend.broken_urls"
    client.raise_request_exception = False
    answer = client.get("/api/quebrado/")
    assert answer.status_code == 500
    assert answer.json() == {"detail": "Erro interno do servidor; tente de novo em alguns minutos."}
    assert "RuntimeError" not in answer.content.decode()


def test_the_500_page_promises_nothing_unconfigured(client, settings):
    settings.ROOT_URLCONF = "tests.backend.broken_urls"
    settings.DISPATCH_CENTRAL_PHONE = ""
    client.raise_request_exception = False
    text = client.get("/quebrado/").content.decode()
    assert "Erro no servidor" in text and "RuntimeError" not in text
    assert "avisad" not in text  # no one is notified: no ADMINS, no error mail
    assert "ligue para a central" not in text  # no phone to call


def test_the_500_page_gives_the_centrals_phone_when_there_is_one(client, settings):
    settings.ROOT_URLCONF = "tests.backend.broken_urls"
    settings.DISPATCH_CENTRAL_PHONE = "(32) 3721-0000"
    client.raise_request_exception = False
    assert "ligue para a central: (32) 3721-0000" in client.get("/quebrado/").content.decode()


def test_a_bad_host_under_the_api_is_a_json_400(client):
    answer = client.get("/api/nao-existe/", HTTP_HOST="evil.example")
    assert answer.status_code == 400
    assert answer.json() == {"detail": "Requisição inválida."}


def test_a_bad_host_on_a_page_is_a_portuguese_400(client):
    page = client.get("/", HTTP_HOST="evil.example")
    assert page.status_code == 400 and "Requisição inválida" in page.content.decode()


def test_no_database_connection_under_the_api_is_a_json_503(client, settings):
    settings.ROOT_URLCONF = "tests.backend.broken_urls"
    client.raise_request_exception = False
    answer = client.get("/api/ocupado/")
    assert answer.status_code == 503 and answer["Retry-After"] == "5"
    assert answer.json() == {"detail": "Servidor ocupado; tente de novo em alguns segundos."}


def test_no_database_connection_on_a_page_is_a_portuguese_503(client, settings):
    settings.ROOT_URLCONF = "tests.backend.broken_urls"
    client.raise_request_exception = False
    page = client.get("/ocupado/")
    assert page.status_code == 503 and "Servidor ocupado" in page.content.decode()
