"""The websocket protocol, version 1: every message schema in one place (docs/dispatch-protocol.md).

Every frame is a JSON object with a ``type``. ``parse`` turns a frame into
``(type, data)`` or raises :class:`ProtocolError`, which the consumer sends
back as an ``error`` frame; the connection stays open.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

VERSION = 1
MAX_FRAME_BYTES = 1024 * 1024  # a long trip's trace fits; Daphne itself stops at 2 MiB


class ProtocolError(Exception):
    def __init__(self, code: str, message: str, fields: dict | None = None):
        super().__init__(message)
        self.code, self.message, self.fields = code, str(message), fields or {}

    def frame(self) -> dict:
        body = {"type": "error", "code": self.code, "message": self.message}
        if self.fields:
            body["fields"] = self.fields
        return body


class Point(serializers.Serializer):
    lat = serializers.FloatField(min_value=-90, max_value=90)
    lon = serializers.FloatField(min_value=-180, max_value=180)
    address = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class Empty(serializers.Serializer):
    pass


class Status(serializers.Serializer):
    status = serializers.ChoiceField(choices=["livre", "fora_de_servico"])


class RankId(serializers.Serializer):
    rank_id = serializers.IntegerField(min_value=1)


class OfferId(serializers.Serializer):
    offer_id = serializers.IntegerField(min_value=1)


class RideId(serializers.Serializer):
    ride_id = serializers.IntegerField(min_value=1)


class Fix(serializers.Serializer):
    t = serializers.DateTimeField()
    lat = serializers.FloatField(min_value=-90, max_value=90)
    lon = serializers.FloatField(min_value=-180, max_value=180)
    accuracy_m = serializers.FloatField(min_value=0, required=False, allow_null=True)


class RideComplete(RideId):
    meter_total = serializers.DecimalField(max_digits=10, decimal_places=2, min_value=0)
    trace = Fix(many=True, max_length=10000)  # 5.5 h at one fix every 2 s


class RideRequest(serializers.Serializer):
    pickup = Point()
    destination = Point(required=False, allow_null=True)


class RideCancel(RideId):
    reason = serializers.CharField(max_length=255, required=False, allow_blank=True, default="")


class Auth(serializers.Serializer):
    token = serializers.CharField(max_length=128)


class OperatorRideCreate(RideRequest):
    caller_name = serializers.CharField(max_length=120)
    caller_phone = serializers.CharField(max_length=20)


class Assign(RideId):
    permit_id = serializers.IntegerField(min_value=1)


class Broadcast(serializers.Serializer):
    text = serializers.CharField(max_length=500)


def position(frame: dict) -> dict:
    """``{lat, lon, accuracy?}`` checked by hand: every cab sends one every few seconds, and a DRF serializer costs ~160 µs a frame."""
    errors = {}
    values = {}
    for name, low, high in (("lat", -90.0, 90.0), ("lon", -180.0, 180.0)):
        value = frame.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            errors[name] = [str(_("Informe um número entre %(low)s e %(high)s.") % {"low": int(low), "high": int(high)})]
        else:
            values[name] = float(value)
    accuracy = frame.get("accuracy")
    if accuracy is not None and (isinstance(accuracy, bool) or not isinstance(accuracy, (int, float)) or accuracy < 0):
        errors["accuracy"] = [str(_("A precisão é um número não negativo, em metros."))]
    if errors:
        raise ProtocolError("invalid", _("Mensagem inválida."), errors)
    values["accuracy"] = accuracy
    return values


# What each role may send, and the schema of each message.
INBOUND = {
    "driver": {
        "ping": Empty,
        "position": position,
        "status": Status,
        "rank_check_in": RankId,
        "rank_check_out": Empty,
        "offer_accept": OfferId,
        "offer_decline": OfferId,
        "ride_arriving": RideId,
        "ride_on_board": RideId,
        "ride_complete": RideComplete,
    },
    "passenger": {"ping": Empty, "auth": Auth, "ride_request": RideRequest, "ride_cancel": RideCancel},
    "operator": {
        "ping": Empty,
        "ride_create": OperatorRideCreate,
        "ride_assign": Assign,
        "ride_cancel": RideCancel,
        "broadcast": Broadcast,
    },
}


def parse(role: str, text: str | None) -> tuple[str, dict]:
    if text is None:
        raise ProtocolError("binary_not_supported", _("Envie mensagens JSON em texto."))
    if len(text.encode()) > MAX_FRAME_BYTES:
        raise ProtocolError("too_large", _("Mensagem grande demais."))
    try:
        frame = json.loads(text)
    except ValueError:
        raise ProtocolError("malformed_json", _("JSON inválido."))
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        raise ProtocolError("missing_type", _("Toda mensagem é um objeto JSON com o campo “type”."))
    schema = INBOUND[role].get(frame["type"])
    if schema is None:
        raise ProtocolError("unknown_type", _("Tipo de mensagem desconhecido: %(type)s.") % {"type": frame["type"][:40]})
    if not isinstance(schema, type):  # a hand-written check (the position hot path)
        return frame["type"], schema(frame)
    serializer = schema(data=frame)
    if not serializer.is_valid():
        raise ProtocolError("invalid", _("Mensagem inválida."), _plain(serializer.errors))
    return frame["type"], serializer.validated_data


def _plain(errors):
    if isinstance(errors, dict):
        return {k: _plain(v) for k, v in errors.items()}
    if isinstance(errors, list):
        return [_plain(e) for e in errors]
    return str(errors)
