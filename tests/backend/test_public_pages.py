"""What a visitor meets: the landing page for each public, pt-BR 404 and 500 pages (DEBUG off, as in tests)."""

import pytest

pytestmark = pytest.mark.django_db


def test_landing_page_sends_each_public_to_its_place(client):
    page = client.get("/")
    assert page.status_code == 200
    text = page.content.decode()
    for section, link in (("passageiros", "/passageiro/"), ("motoristas", "/extratos/"), ("permissionarios", "/extratos/"),
                          ("dimutran", "/admin/"), ("dimutran", "/central/")):
        assert f'id="{section}"' in text and f'href="{link}"' in text
    assert "Lei 1.242/1987" in text
    assert 'id="aplicativo"' in text and "python -m driver_app" in text  # the driver to the app, not only to a page
    assert 'id="central"' in text


def test_a_wrong_address_is_a_portuguese_404(client):
    page = client.get("/nao-existe/")
    assert page.status_code == 404
    assert "Página não encontrada" in page.content.decode() and "Traceback" not in page.content.decode()


def test_a_server_error_is_a_portuguese_500(client, settings):
    settings.ROOT_URLCONF = "tests.backend.broken_urls"
    client.raise_request_exception = False
    page = client.get("/quebrado/")
    assert page.status_code == 500
    assert "Erro no servidor" in page.content.decode() and "RuntimeError" not in page.content.decode()
