"""The app's HTTP client against the real registry API (live server, seeded demo): login, cards, logout."""

import pytest
from django.core.management import call_command

from driver_app.clients import AuthError, HttpRegistryClient
from driver_app.storage import JsonStore
from driver_app.viewmodels import CardsViewModel, FlagViewModel, LoginViewModel


@pytest.mark.django_db(transaction=True)
@pytest.mark.article("Art. 51")
def test_login_and_cards_from_the_live_api(live_server, tmp_path, clock):
    call_command("seed_demo", verbosity=0)
    client = HttpRegistryClient(live_server.url)
    with pytest.raises(AuthError):
        client.login("auxiliar", "wrong")
    login = LoginViewModel(JsonStore(tmp_path / "app"), client)  # inline: the calls answer in order
    login.login("auxiliar", "taxi12345")
    answers = []
    login.fetch_me(answers.append)
    me = answers[0].me
    cards = CardsViewModel()
    cards.load(me, clock().date())
    assert cards.role == "auxiliar" and cards.role_label == "Motorista auxiliar"
    assert cards.cmt_number and cards.plate and cards.cvi_permit == cards.cmt_permit
    assert cards.compliance_allowed is True
    flag = FlagViewModel(clock)
    flag.set_compliance(me["compliance"])
    assert flag.go_free()
    holder = LoginViewModel(JsonStore(tmp_path / "holder"), client)
    holder.login("permissionario", "taxi12345")
    holder.fetch_me(answers.append)
    cards.load(answers[1].me, clock().date())
    assert cards.role_label == "Permissionário"
    token = holder.token
    holder.logout()  # POST /api/auth/logout/: the server revokes the token
    with pytest.raises(AuthError):
        client.me(token)
