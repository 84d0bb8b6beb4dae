"""The Kivy screens of the driver's money: the Partilha (the week's split and rides, each with its payment), the
payment of a ride (with the Pix QR code) and the driver's own Pix key. They copy the view-models' texts
(``SplitViewModel``, ``PaymentViewModel``, ``PixKeyViewModel``); the logic lives there (tests without a window).
"""

from __future__ import annotations

import io

from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen


class RideLineView(BoxLayout):
    """One ride of the week: when, fare, origin, its payment and, unpaid, "Registrar pagamento"."""

    ride_id = NumericProperty(0)
    when = StringProperty("")
    fare = StringProperty("")
    origin = StringProperty("")
    disagreement = StringProperty("")
    payment = StringProperty("")
    payable = BooleanProperty(False)


class WeekRowView(BoxLayout):
    title = StringProperty("")
    gross = StringProperty("")
    auxiliary = StringProperty("")
    holder = StringProperty("")


class SplitScreen(Screen):
    agreement = StringProperty("")
    week_title = StringProperty("Esta semana")
    gross = StringProperty("")
    auxiliary = StringProperty("")
    holder = StringProperty("")
    my_part_label = StringProperty("")
    my_part = StringProperty("")
    error = StringProperty("")
    note = StringProperty("")
    received = StringProperty("")
    settlement = StringProperty("")
    server_check = StringProperty("")
    status = StringProperty("")
    empty = StringProperty("")
    loading = BooleanProperty(False)

    def refresh(self, s) -> None:
        v = s.split
        self.agreement, self.error, self.note = v.agreement_text, v.error, v.note
        self.status, self.empty, self.loading, self.server_check = v.status_text, v.empty_text, v.loading, v.server_check
        rides = self.ids.rides
        rides.clear_widgets()
        for line in v.rides:
            rides.add_widget(RideLineView(ride_id=line.ride_id or 0, when=line.when, fare=line.fare, origin=line.origin,
                                          disagreement=line.disagreement, payment=line.payment, payable=line.payable))
        self.received, self.settlement = v.received_text, v.settlement_text
        self.my_part_label, self.my_part = v.my_part_label, v.my_part
        if v.this_week:
            w = v.this_week
            self.week_title = f"{w.title} ({w.period}, {w.fares} corridas)"
            self.gross, self.auxiliary, self.holder = w.gross, w.auxiliary, w.permit_holder
        past = self.ids.past
        past.clear_widgets()
        for row in v.past_weeks:
            past.add_widget(WeekRowView(title=f"{row.title} · {row.fares} corridas", gross=row.gross,
                                        auxiliary=row.auxiliary, holder=row.permit_holder))


class PaymentScreen(Screen):
    fare = StringProperty("")
    method_text = StringProperty("")
    receiver = StringProperty("")
    payload = StringProperty("")
    payload_lines = StringProperty("")  # the BR Code cut in lines: a Label wraps only at blanks
    message = StringProperty("")
    queue = StringProperty("")
    choosing = BooleanProperty(True)
    register_key = BooleanProperty(False)  # no Pix key: "Cadastrar chave Pix" opens the Chave Pix screen
    qr_texture = ObjectProperty(None, allownone=True)

    def refresh(self, s) -> None:
        p = s.payment
        if p is None:
            return
        self.fare, self.method_text, self.receiver = p.fare_text, p.method_text, p.receiver_text
        self.message, self.queue, self.choosing = p.message, p.queue_text, p.pending
        self.register_key = p.pending and p.can_register_key
        if p.pix_payload != self.payload:
            self.payload = p.pix_payload
            self.payload_lines = "\n".join(p.pix_payload[i:i + 44] for i in range(0, len(p.pix_payload), 44))
            self.qr_texture = _png_texture(p.qr_png()) if p.pix_payload else None


class PixKindButton(Button):
    kind = StringProperty("")
    chosen = BooleanProperty(False)


class PixKeyScreen(Screen):
    """Register, change or remove the driver's own Pix key (kind + key)."""

    current = StringProperty("")
    hint = StringProperty("")
    error = StringProperty("")
    message = StringProperty("")
    has_key = BooleanProperty(False)
    busy = BooleanProperty(False)

    def refresh(self, s) -> None:
        v = s.pix
        if v is None:
            return
        self.current, self.hint, self.error, self.message = v.current_text, v.hint, v.error, v.message
        self.has_key, self.busy = v.current is not None, v.busy or v.loading
        box = self.ids.kinds
        box.clear_widgets()
        for kind, label, chosen in v.kinds:
            box.add_widget(PixKindButton(text=label, kind=kind, chosen=chosen))


def _png_texture(png: bytes):
    """A Kivy texture from PNG bytes (the QR code), nearest-neighbour so its modules stay sharp."""
    from kivy.core.image import Image as CoreImage

    texture = CoreImage(io.BytesIO(png), ext="png").texture
    texture.mag_filter = "nearest"
    return texture
