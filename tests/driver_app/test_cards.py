import copy
from datetime import date

import pytest

from driver_app.clients import DEMO_ME
from driver_app.viewmodels import CardsViewModel

TODAY = date(2026, 3, 4)


def load(me, today=TODAY):
    vm = CardsViewModel()
    vm.load(me, today)
    return vm


def test_cmt_and_cvi_fields():
    vm = load(DEMO_ME)
    assert vm.name == "José da Silva Pereira" and vm.initials == "JP"
    assert vm.photo_url is None  # placeholder with the initials
    assert vm.cmt_number == "CMT-0042" and vm.cmt_valid_until == "10/04/2026"
    assert vm.cmt_permit == "P-017" and vm.role_label == "Motorista auxiliar"
    assert vm.plate == "GXY-4B21" and vm.model_text == "Chevrolet Spin LTZ 2022" and vm.colour == "branca"
    assert vm.cvi_permit == "P-017" and vm.rank_text == "Ponto da Praça João Pinheiro"
    assert vm.seal_valid_until == "30/09/2026"
    assert vm.warnings == []
    assert vm.compliance_text == "Apto a trabalhar"


def test_rank_may_be_none_and_role_permissionario():
    me = copy.deepcopy(DEMO_ME)
    me["cvi"].pop("rank")  # /api/me/ does not send it today
    me["cmt"]["role"] = "permissionario"
    vm = load(me)
    assert vm.rank is None and vm.rank_text == "—"
    assert vm.role_label == "Permissionário"


@pytest.mark.article("Art. 51")
def test_cmt_expiry_warnings():
    me = copy.deepcopy(DEMO_ME)
    me["cmt"]["expires_on"] = "2026-03-20"
    assert load(me).warning_texts == ["CMT vence em 16 dias (20/03/2026)"]
    me["cmt"]["expires_on"] = "2026-03-04"
    assert load(me).warning_texts == ["CMT vence hoje (04/03/2026)"]
    me["cmt"]["expires_on"] = "2026-03-01"
    vm = load(me)
    assert vm.warning_texts == ["CMT vencida desde 01/03/2026"] and vm.warnings[0].level == "expired"
    me["cmt"] = None
    assert load(me).warning_texts == ["Sem CMT emitida"]


@pytest.mark.article("Art. 37")
def test_seal_expiry_warnings():
    me = copy.deepcopy(DEMO_ME)
    me["cvi"]["seal_valid_until"] = "2026-03-05"
    assert load(me).warning_texts == ["Selo de vistoria vence em 1 dia (05/03/2026)"]
    me["cvi"]["seal_valid_until"] = "2026-02-28"
    assert load(me).warning_texts == ["Selo de vistoria vencido desde 28/02/2026"]
    me["cvi"]["seal_valid_until"] = None
    assert load(me).warning_texts == ["Veículo sem selo de vistoria válido"]


def test_full_screen_flag_and_compliance_refusal():
    me = copy.deepcopy(DEMO_ME)
    me["compliance"] = {"allowed": False, "articles": ["Art. 51"],
                        "reasons": [{"article": "Art. 51", "code": "cmt_expired", "message": "CMT vencida."}]}
    vm = load(me)
    assert vm.compliance_text == "Impedido: CMT vencida."
    assert vm.full_screen is False
    vm.toggle_full_screen()
    assert vm.full_screen is True
    vm.toggle_full_screen()
    assert vm.full_screen is False
