"""More screenshots, run by ``driver_app.screenshots`` after its own steps: the Pix key screen (the key in force, an
invalid key refused, a new key saved and used at once, the key removed), a payment recorded from the week's rides
after its screen was missed, the Partilha updated after that card payment, and the Status screen while the central
does not count the cab online (its ``presence`` frame) with what to do.

``steps(app, session, shot, manifest)`` is a generator: each ``yield`` lets Kivy draw before the next ``shot``.
"""

from __future__ import annotations

from taxiwire import outbound

VALID_CPF = "529.982.247-25"  # a well-formed CPF (check digits right), typed as people type it
INVALID_CPF = "529.982.247-26"  # one digit off: its check digits do not match


def pix_steps(app, session, shot, manifest):
    app.go("pixkey")
    yield
    shot("pix_key_current")
    app.pix_kind("cpf")
    app.sm.get_screen("pixkey").ids.key.text = INVALID_CPF
    app.pix_save(INVALID_CPF)
    yield
    shot("pix_key_invalid")
    manifest["pix_key_invalid"]["saved_key"] = (session.pix.current or {}).get("key")
    app.sm.get_screen("pixkey").ids.key.text = VALID_CPF
    app.pix_save(VALID_CPF)
    yield
    shot("pix_key_saved")
    manifest["pix_key_saved"]["terms_key"] = session.payment.terms.get("key")  # used at once: no new login
    app.pix_remove()
    yield
    shot("pix_key_removed")
    manifest["pix_key_removed"]["terms_key"] = session.payment.terms.get("key")
    app.pay_ride(52)  # the other unpaid ride of the week: the passenger wants to pay by Pix
    app.pay("pix")
    yield
    shot("payment_no_key")
    app.go("pixkey")  # "Cadastrar chave Pix"
    app.pix_kind("phone")
    app.pix_save("+55 32 98888-1234")
    app.pix_back()  # back to the payment, which now offers the Pix on the new key
    app.pay("pix")
    yield
    shot("payment_pix_new_key")
    manifest["payment_pix_new_key"]["pix"] = session.payment.pix_payload
    app.payment_done()
    yield


def missed_payment_steps(app, session, shot, manifest):
    statements = session.extras["statements"]
    week = next(w for w in statements.weeks if w["week_start"] == "2026-03-02")
    for number, line in enumerate(week["rides"], start=51):  # the central's numbers for the week's rides
        line.setdefault("ride", number)
        line.setdefault("method", "cash" if number == 51 else "unrecorded")
    app.go("split")
    session.split.load(session.today(), session.cards.role)
    yield
    shot("split_unpaid")
    unpaid = [line for line in session.split.rides if line.payable]
    missed = unpaid[-1]  # the street ride of 19:41: its payment screen was missed
    manifest["split_unpaid"]["payable"] = [line.ride_id for line in unpaid]
    app.pay_ride(missed.ride_id)
    yield
    shot("payment_reopened")
    app.pay("card")
    yield
    shot("payment_reopened_card")
    app.payment_done()  # back to the week's rides, already reloaded after the payment
    yield
    shot("split_after_card")
    manifest["split_after_card"]["paid"] = missed.ride_id
    manifest["split_after_card"]["recorded"] = {str(k): v for k, v in session.extras["payments"].recorded.items()}


def presence_steps(app, session, shot, manifest):
    app.go("flag")
    session.on_dispatch({"type": "connection", "online": True})  # the socket is open...
    session.on_dispatch(outbound.PRESENCE(online=False))  # ...but the central swept the cab's serving process  # the central swept the cab's serving process
    yield
    shot("flag_not_receiving")
    session.on_dispatch(outbound.PRESENCE(online=True))
    yield
    shot("flag_receiving_again")


def steps(app, session, shot, manifest):
    yield from missed_payment_steps(app, session, shot, manifest)
    yield from pix_steps(app, session, shot, manifest)
    yield from presence_steps(app, session, shot, manifest)
