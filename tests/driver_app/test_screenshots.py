"""Render every screen headless, save PNGs to test-artifacts/driver_app/ and check what is visible.

Kivy keeps global state (one window per process), so the rendering runs in a
subprocess (``python -m driver_app.screenshots``) under Xvfb (started here when
there is no DISPLAY).  Needs the apt packages xvfb, libgl1-mesa-dri, libegl1,
libmtdev1 (docs/driver-app.md).
"""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from driver_app.viewmodels.flag import colour_255

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-artifacts" / "driver_app"


def _start_xvfb():
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        if os.environ.get("MURIAE_REQUIRE_SCREENSHOTS"):
            pytest.fail("Xvfb not installed (apt-get install xvfb libgl1-mesa-dri libegl1 libmtdev1)")
        pytest.skip("no DISPLAY and no Xvfb (apt-get install xvfb libgl1-mesa-dri libegl1 libmtdev1)")
    r, w = os.pipe()
    proc = subprocess.Popen([xvfb, "-displayfd", str(w), "-screen", "0", "1024x1024x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as fh:
        display = fh.readline().strip()
    if not display:
        proc.kill()
        pytest.fail("Xvfb did not start")
    return proc, f":{display}"


SHOTS_DIR: dict = {}


def _render(tmp_path_factory, out):
    """Render into ``out`` (private to this run: concurrent runs never share it), then copy the PNGs to
    test-artifacts/driver_app/."""
    proc = None
    display = os.environ.get("DISPLAY")
    if not display:
        proc, display = _start_xvfb()
    try:
        env = dict(os.environ)
        env.pop("DJANGO_SETTINGS_MODULE", None)
        env.update({"DISPLAY": display, "KIVY_NO_ARGS": "1", "KIVY_METRICS_DENSITY": "1",
                    "KIVY_HOME": str(tmp_path_factory.mktemp("kivy_home")), "KIVY_NO_CONSOLELOG": "1",
                    "KIVY_GL_BACKEND": env.get("KIVY_GL_BACKEND", "sdl2"), "LIBGL_ALWAYS_SOFTWARE": "1",
                    "PYTHONPATH": str(ROOT)})
        result = subprocess.run([sys.executable, "-m", "driver_app.screenshots", str(out)], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=300)
        error = out / "error.txt"
        assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-3000:],
                                        error.read_text() if error.exists() else "")
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        OUT.mkdir(parents=True, exist_ok=True)
        for f in out.iterdir():
            shutil.copy2(f, OUT / f.name)
        manifest["_dir"] = str(out)
        return manifest
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    manifest = _shots(tmp_path_factory)
    SHOTS_DIR["dir"] = manifest["_dir"]
    return manifest


def _shots(tmp_path_factory):
    """Rendered once per run, also under pytest-xdist (the first worker renders, the others wait)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return _render(tmp_path_factory, tmp_path_factory.mktemp("driver_app_shots"))
    shared = tmp_path_factory.getbasetemp().parent
    lock, done = shared / "driver_app_shots.lock", shared / "driver_app_shots.json"
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        for _ in range(600):
            if done.exists():
                manifest = json.loads(done.read_text(encoding="utf-8"))
                if "_failed" in manifest:
                    pytest.fail("rendering failed in another worker: " + manifest["_failed"])
                return manifest
            time.sleep(0.5)
        pytest.fail("timed out waiting for another worker's screenshots")
    os.close(fd)
    try:
        manifest = _render(tmp_path_factory, shared / "driver_app_shots")
    except BaseException as exc:
        done.write_text(json.dumps({"_failed": repr(exc)[:2000]}), encoding="utf-8")
        raise
    done.write_text(json.dumps(manifest), encoding="utf-8")
    return manifest


def pixel(name, xy):
    from PIL import Image

    with Image.open(Path(SHOTS_DIR["dir"]) / name) as img:
        return img.convert("RGB").getpixel(tuple(xy))


def close(rgb, expected, tol=6):
    return all(abs(a - b) <= tol for a, b in zip(rgb, expected))


EXPECTED_SCREENS = {"login", "login_offline", "login_busy", "cards", "cards_fullscreen", "cards_offline", "flag_fora_de_servico", "flag_livre", "offer",
                    "ride_accepted", "ride_cancel_reasons", "flag_a_caminho", "meter_bandeira_1", "flag_bandeira_1",
                    "meter_bandeira_2_night", "flag_bandeira_2_night", "meter_ended_offline_night", "payment_pix", "split",
                    "split_empty", "ranks_visitor_refused", "pix_key_current", "pix_key_invalid", "pix_key_saved",
                    "pix_key_removed", "split_unpaid", "payment_reopened", "payment_reopened_card", "split_after_card",
                    "flag_not_receiving", "flag_receiving_again", "payment_no_key", "payment_pix_new_key"}


def test_every_screen_rendered(shots):
    assert EXPECTED_SCREENS <= set(shots)
    for name in EXPECTED_SCREENS:
        png = Path(shots["_dir"]) / shots[name]["png"]
        assert (OUT / shots[name]["png"]).exists()  # kept as a test artifact
        assert png.exists() and png.stat().st_size > 5000, name
        from PIL import Image

        with Image.open(png) as img:
            assert img.size == tuple(shots[name]["size"])
            assert len(img.convert("RGB").getcolors(1 << 20)) > 10, f"{name} looks blank"


def test_login_screen(shots):
    texts = shots["login"]["texts"]
    assert "Táxi Muriaé – Motorista" in texts and "Entrar" in texts
    assert "Cartões" not in texts  # no navigation before login


def test_the_login_says_offline_lets_the_driver_retry_and_shows_entrando_while_it_runs(shots):
    offline = shots["login_offline"]
    assert offline["screen"] == "login" and "Sem conexão com o servidor. Tente novamente." in offline["texts"]
    assert "Entrar" in offline["buttons"] and offline["disabled"] == []  # try again
    busy = shots["login_busy"]
    assert busy["screen"] == "login" and busy["disabled"] == ["Entrando…"]
    assert "Sem conexão com o servidor. Tente novamente." not in busy["texts"]


def test_cards_screen(shots):
    texts = shots["cards"]["texts"]
    for t in ["CMT – Carteira de Motorista de Táxi", "José da Silva Pereira", "Motorista auxiliar",
              "Nº CMT-0042", "Válida até 20/03/2026", "CVI – Cartão de Identificação do Veículo",
              "Placa GXY-4B21", "Chevrolet Spin LTZ 2022 · branca", "Permissão P-017",
              "Ponto: Ponto da Praça João Pinheiro", "CMT vence em 16 dias (20/03/2026)", "Mostrar em tela cheia"]:
        assert t in texts, t
    assert "Tentar de novo" not in shots["cards"]["buttons"]  # the server's answer: no status
    full = shots["cards_fullscreen"]["texts"]
    assert "Sair da tela cheia" in full and "Placa GXY-4B21" in full
    assert "Partilha" not in full and "Sair da conta" not in full  # navigation hidden in full screen


def test_offline_the_cards_say_they_are_the_saved_copy_and_offer_a_retry(shots):
    shot = shots["cards_offline"]
    assert "Sem conexão: dados salvos em 04/03/2026 às 21:50" in shot["texts"]
    assert "Placa GXY-4B21" in shot["texts"] and "Tentar de novo" in shot["buttons"]


@pytest.mark.article("Art. 45, I", "Art. 45, II")
@pytest.mark.parametrize("name, state, label, reason", [
    ("flag_fora_de_servico", "fora_de_servico", "Fora de serviço", None),
    ("flag_livre", "livre", "Livre", "Corrida agora: Bandeira I (dia útil, 06:00–22:00)"),
    ("flag_a_caminho", "a_caminho", "A caminho", None),
    ("flag_bandeira_1", "bandeira_1", "Bandeira I", "dia útil, 06:00–22:00"),
    ("flag_bandeira_2_night", "bandeira_2", "Bandeira II", "22:00–06:00"),
    ("meter_bandeira_1", "bandeira_1", "Bandeira I", "dia útil, 06:00–22:00"),
    ("meter_bandeira_2_night", "bandeira_2", "Bandeira II", "22:00–06:00"),
])
def test_flag_label_reason_and_colour(shots, name, state, label, reason):
    shot = shots[name]
    assert shot["display_state"] == state
    assert shot["flag_label"] == label and label in shot["texts"]
    if reason:
        assert reason in shot["texts"]
    rgb = pixel(shot["png"], shot["flag_pixel"])
    assert close(rgb, colour_255(state)), (name, rgb, colour_255(state))


@pytest.mark.article("Art. 1, VII", "Art. 43")
def test_meter_screen(shots):
    texts = shots["meter_bandeira_1"]["texts"]
    assert "Encerrar corrida" in texts and "Corrida em andamento" in texts
    money = [t for t in texts if t.startswith("R$ ") and "," in t]
    assert money and money[0] != "R$ 5,50"  # more than the bandeirada after 4 minutes
    assert any(t.endswith(" km") and "," in t for t in texts)
    assert any(len(t) == 8 and t.count(":") == 2 for t in texts)  # 00:00:42
    ended = shots["meter_ended_offline_night"]["texts"]
    assert f"Corrida encerrada: cobrar {shots['_state']['fare']}" in ended
    assert "1 corrida aguardando conexão" in ended and "Iniciar corrida" in ended


def test_night_theme_is_dark(shots):
    day = pixel(shots["meter_bandeira_1"]["png"], (240, 600))
    night = pixel(shots["meter_bandeira_2_night"]["png"], (240, 600))
    assert sum(day) > 600 and sum(night) < 120


def test_offer_screen(shots):
    texts = shots["offer"]["texts"]
    for t in ["Nova chamada", "Rua Coronel Izalino, 120 – Centro (em frente à matriz)", "850 m até o passageiro",
              "0:15", "Aceitar", "Recusar", "Passageiro: Maria Aparecida", "Destino: Hospital São Paulo",
              "Ligar para o passageiro"]:
        assert t in texts, t


@pytest.mark.article("Art. 66")
def test_the_offer_took_over_the_rank_screen_and_accepting_shows_the_ride(shots):
    assert shots["offer"]["screen"] == "offer" and shots["offer"]["took_over"] == "ranks"  # pushed on Pontos
    ride = shots["ride_accepted"]
    assert ride["screen"] == "ride"
    assert list(ride["buttons"]) == ["Cheguei", "Navegar até o passageiro", "Ligar para o passageiro", "Cancelar corrida"]
    assert "Maria Aparecida · (32) 99876-5432" in ride["texts"] and "Destino: Hospital São Paulo" in ride["texts"]


@pytest.mark.article("Art. 1, X")
def test_the_cancel_reasons_wait_for_the_no_show_time(shots):
    shot = shots["ride_cancel_reasons"]
    assert list(shot["buttons"]) == ["Passageiro não apareceu (em 3:30)", "Passageiro pediu para cancelar (telefone)",
                                     "Problema no veículo", "Voltar"]
    assert shot["disabled"] == ["Passageiro não apareceu (em 3:30)"]


@pytest.mark.article("Art. 1, §3")
def test_split_screen(shots):
    texts = shots["split"]["texts"]
    for t in ["Partilha semanal", "Bruto da semana R$ 412,60", "Sua parte (auxiliar): R$ 103,15",
              "Auxiliar R$ 103,15", "Permissionário R$ 309,45", "Bruto R$ 1.234,50",
              "Auxiliar R$ 308,63   ·   Permissionário R$ 925,87",
              "Você recebeu: dinheiro R$ 186,40 · Pix R$ 126,20",
              "Acerto até agora: José da Silva Pereira paga R$ 209,45 a Maria Aparecida Costa"]:
        assert t in texts, t


@pytest.mark.article("Art. 1, §3", "Art. 43")
def test_the_weeks_rides_with_origin_and_meter_disagreement_and_the_servers_check(shots):
    texts = shots["split"]["texts"]
    for t in ["Corridas da semana", "seg 02/03 14:20   R$ 18,80   central", "ter 03/03 09:05   R$ 12,40   ponto",
              "qua 04/03 19:41   R$ 23,10   rua", "Taxímetro divergente: servidor calculou R$ 25,70",
              "Confere com o extrato da central."]:
        assert t in texts, t
    empty = shots["split_empty"]["texts"]
    assert "Nenhuma corrida nesta semana." in empty and "Bruto da semana R$ 0,00" in empty
    assert "Semana de 23/02/2026 · 61 corridas" in empty  # the closed weeks still listed


@pytest.mark.article("Art. 27, §3", "Art. 22, I", "Art. 9, V")
def test_the_rank_screen_shows_each_ranks_queue_and_the_visitor_rules_answer(shots):
    shot = shots["ranks_visitor_refused"]
    texts = shot["texts"]
    assert shot["screen"] == "ranks" and "Fora de ponto" in texts
    assert "Praça João Pinheiro · 120 m" in texts and "Titular deste ponto: pode parar" in texts
    assert "privativo (Art. 22, I) · 6 titulares · até 2 de outros pontos · 4 na fila" in texts
    assert ("Não pode parar: O ponto já tem 4 veículos titulares; veículos de outros pontos só podem estacionar "
            "com até 3 titulares presentes (Art. 27, §3).") in texts
    assert "Registrar chegada" in shot["buttons"]  # on the rank the law lets this cab stand at (one per row: test_ranks)


@pytest.mark.article("Art. 43")
def test_payment_screen_shows_a_pix_qr_that_decodes_to_the_fare(shots):
    import zxingcpp
    from PIL import Image

    from taxilaw import pix

    shot = shots["payment_pix"]
    texts = shot["texts"]
    fare = shots["_state"]["fare"]
    for t in ["Pagamento da corrida", fare, "Pagamento: Pix", "Pix para José da Silva Pereira", "Pix copia e cola"]:
        assert t in texts, t
    payload = shot["pix"]
    assert payload and shot["copia_e_cola"] == payload
    assert pix.parse(payload)["54"] == fare.replace("R$ ", "").replace(",", ".")
    with Image.open(Path(shots["_dir"]) / shot["png"]) as img:
        found = zxingcpp.read_barcodes(img.convert("L"))
    assert [r.text for r in found] == [payload]  # the QR on the screen, read back from the screenshot


def test_dispatch_frames_of_the_demo(shots):
    """The app sends the wire's frames only (taxiwire.inbound); a dispatched ride's a caminho and ocupado are the
    central's own (offer_accept, ride_on_board), never sent as a status."""
    from taxiwire import inbound

    sent = shots["_state"]["sent"]
    assert sent[0] == {"type": "status", "status": "livre"}
    assert {m["type"] for m in sent} <= set(inbound.INBOUND["driver"])
    kinds = [m["type"] for m in sent if m["type"] != "position"]
    assert kinds[:5] == ["status", "rank_check_in", "offer_accept", "ride_arriving", "ride_on_board"]


def test_large_touch_targets_keep_their_colours_at_night(shots):
    shot = shots["flag_livre"]
    assert close(pixel(shot["png"], shot["buttons"]["Fora de serviço"]), colour_255("fora_de_servico"))
    assert {"Ficar livre", "Fora de serviço"} <= set(shots["flag_bandeira_2_night"]["disabled"])  # during the trip
    offer = shots["offer"]
    assert close(pixel(offer["png"], offer["buttons"]["Aceitar"]), colour_255("livre"))
    assert close(pixel(offer["png"], offer["buttons"]["Recusar"]), colour_255("bandeira_2"))


def test_the_pix_key_screen_refuses_an_invalid_key_saves_a_valid_one_used_at_once_and_removes_it(shots):
    """The key is checked on the phone with the server's own ``taxilaw.pix.check_key`` (same pt-BR words)."""
    assert "Chave atual: Celular +5532999991234" in shots["pix_key_current"]["texts"]
    invalid = shots["pix_key_invalid"]
    assert "CPF inválido: os dígitos verificadores não conferem." in invalid["texts"]
    assert invalid["saved_key"] == "+5532999991234"  # nothing sent: the key in force stays
    saved = shots["pix_key_saved"]
    assert "Chave atual: CPF 52998224725" in saved["texts"] and saved["terms_key"] == "52998224725"  # no new login
    removed = shots["pix_key_removed"]
    assert "Nenhuma chave Pix cadastrada." in removed["texts"] and "Remover chave" not in removed["buttons"]
    assert removed["terms_key"] is None
    no_key = shots["payment_no_key"]
    assert any(t.startswith("Sem chave Pix cadastrada") for t in no_key["texts"]) and "Cadastrar chave Pix" in no_key["buttons"]
    new_key = shots["payment_pix_new_key"]
    assert new_key["screen"] == "payment" and "Pix para José da Silva Pereira" in new_key["texts"]
    from taxilaw import pix

    assert pix.parse_fields(pix.parse(new_key["pix"])["26"])["01"] == "+5532988881234"  # the new key, no new login


@pytest.mark.article("Art. 1, §3", "Art. 43")
def test_a_missed_payment_is_recorded_from_the_weeks_rides_and_the_partilha_follows_the_card_payment(shots):
    unpaid = shots["split_unpaid"]
    assert unpaid["payable"] == [52, 53] and unpaid["texts"].count("Registrar pagamento") == 2
    assert "Pagamento: dinheiro" in unpaid["texts"] and "Pagamento: não informado" in unpaid["texts"]
    assert "Você recebeu: dinheiro R$ 186,40 · Pix R$ 126,20" in unpaid["texts"]
    reopened = shots["payment_reopened"]
    assert reopened["screen"] == "payment" and "R$ 23,10" in reopened["texts"]
    assert {"Dinheiro", "Pix", "Cartão"} <= set(reopened["buttons"])
    assert "Pagamento: Cartão" in shots["payment_reopened_card"]["texts"]
    after = shots["split_after_card"]
    assert after["screen"] == "split" and after["recorded"] == {"53": {"method": "card", "card_machine": "driver"}}
    assert "Você recebeu: dinheiro R$ 186,40 · Pix R$ 126,20 · cartão R$ 23,10" in after["texts"]
    assert "Pagamento: cartão" in after["texts"] and after["texts"].count("Registrar pagamento") == 1


def test_the_offer_rang_the_bundled_sound_through_the_facade(shots):
    assert shots["_sound"]["requests"] == 1 and shots["_sound"]["played"] in (0, 1)


def test_the_status_screen_says_when_the_central_does_not_count_the_cab_online_and_what_to_do(shots):
    texts = shots["flag_not_receiving"]["texts"]
    assert "Central conectada, mas sem receber corridas" in " ".join(texts)
    assert any(t.startswith("Você não está recebendo corridas") and "feche e abra o aplicativo" in t for t in texts)
    again = " ".join(shots["flag_receiving_again"]["texts"])
    assert "Registro na central refeito: você voltou a receber corridas." in again and "sem receber" not in again
