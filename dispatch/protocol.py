"""What clients may send: the inbound frames declared in :mod:`taxiwire.inbound`, read and checked here.

Every frame is a JSON object with a ``type``. ``parse`` turns a frame into ``(type, data)`` or raises
:class:`ProtocolError`, which the consumer sends back as an ``error`` frame (``dispatch.wire.error``); the
connection stays open. The checks are DRF serializers built from the declarations (:func:`serializer_for`), so a
refusal keeps the pt-BR field messages of the REST API; the server's own rules on top (no fix in the future) are
``CHECKS`` below. ``position`` and ``status`` are checked by hand: they are the hot path.
"""

from __future__ import annotations

import json
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from backend.api.fields import AwareDateTimeField
from backend.api.fields import PlaceSerializer as Place
from taxilaw.brazil import PhoneError, parse_phone
from taxiwire import inbound
from taxiwire.inbound import DRIVER_STATUSES, In, InFrame
from taxiwire.limits import MAX_DEPTH, MAX_FRAME_BYTES, VERSION  # noqa: F401  (re-exported)

# A longer frame is read and checked in the offering worker, off the event loop (dispatch.transport.off_loop): reading 1 MiB of
# JSON is ~25 ms, checking a 10,000-fix trace ~0.5 s (docs/dispatch-benchmark.md, "Large frames").
INLINE_FRAME_BYTES = 16 * 1024


class ProtocolError(Exception):
    def __init__(self, code: str, message: str, fields: dict | None = None):
        super().__init__(message)
        self.code, self.message, self.fields = code, str(message), fields or {}

    def __reduce__(self):  # raised in an offering worker process (dispatch.transport.off_loop), re-raised in the serving one
        return type(self), (self.code, self.message, self.fields)


CLOCK_SKEW = timedelta(minutes=5)  # a phone's clock may run this far ahead of the server's


def _no_future_fix(trace: list[dict]) -> None:
    """A fix later than now would make the server's meter charge time that has not passed (bounded work)."""
    if trace and max(f["t"] for f in trace) > timezone.now() + CLOCK_SKEW:
        raise serializers.ValidationError({"trace": [_("Um ponto do trajeto está no futuro.")]})



def _ride_complete(data):
    _no_future_fix(data["trace"])
    return data


def _street_trip(data):
    _no_future_fix(data["trace"])
    stopped = data["stopped_at"] or max(f["t"] for f in data["trace"])
    if stopped < data["started_at"]:
        raise serializers.ValidationError({"stopped_at": [_("O fim da corrida é anterior ao início.")]})
    if stopped > timezone.now() + CLOCK_SKEW:
        raise serializers.ValidationError({"stopped_at": [_("O fim da corrida está no futuro.")]})
    data["stopped_at"] = stopped
    return data


def _ride_create(data):
    """The caller's phone as every other door stores it (E.164, taxilaw.brazil): the console finds the caller's
    history by it, whether the ride came by phone or by the passenger's page."""
    try:
        data["caller_phone"] = parse_phone(data["caller_phone"])
    except PhoneError as wrong:
        raise serializers.ValidationError({"caller_phone": [str(wrong)]}) from None
    return data


# The server's rules beyond each field's own (the clock, the phone plan): run on the checked frame.
CHECKS = {inbound.RIDE_COMPLETE: _ride_complete, inbound.STREET_TRIP_COMPLETE: _street_trip,
          inbound.RIDE_CREATE: _ride_create}


def _options(spec: In) -> dict:
    options: dict = {}
    if not spec.required:
        options["required"] = False
    if spec.default is not inbound.REQUIRED:
        options["default"] = spec.default
    if spec.null:
        options["allow_null"] = True
    return options


def _limits(spec: In) -> dict:
    names = {"low": "min_value", "high": "max_value", "max_length": "max_length", "min_length": "min_length"}
    return {drf: getattr(spec, ours) for ours, drf in names.items() if getattr(spec, ours) is not None}


# Complexity kept: one line per field kind of taxiwire.inbound.KINDS; a table would need a lambda each.
def drf_field(spec: In) -> serializers.Field:  # noqa: C901
    """The DRF field that checks one declared field (with DRF's pt-BR messages)."""
    options, limits = _options(spec), _limits(spec)
    if spec.kind == "int":
        return serializers.IntegerField(**limits, **options)
    if spec.kind == "number":
        return serializers.FloatField(**limits, **options)
    if spec.kind == "decimal":
        return serializers.DecimalField(max_digits=10, decimal_places=2, **limits, **options)
    if spec.kind == "string":
        return serializers.CharField(allow_blank=spec.blank, **limits, **options)
    if spec.kind == "datetime":
        return serializers.DateTimeField(**options)
    if spec.kind == "aware_datetime":
        return AwareDateTimeField(**options)
    if spec.kind == "uuid":
        return serializers.UUIDField(**options)
    if spec.kind == "choice":
        return serializers.ChoiceField(choices=list(spec.choices), **options)
    if spec.kind == "place":
        return Place(**options)
    if isinstance(spec.item, dict):  # a list of objects
        return _serializer(spec.item)(many=True, **limits, **options)
    return serializers.ListField(child=drf_field(spec.item), **limits, **options)


def _serializer(fields: dict, name: str = "Object", check=None) -> type[serializers.Serializer]:
    attrs: dict = {field: drf_field(spec) for field, spec in fields.items()}
    if check is not None:
        attrs["validate"] = lambda self, data: check(data)
    return type(name, (serializers.Serializer,), attrs)


def serializer_for(frame: InFrame) -> type[serializers.Serializer]:
    """The serializer of an inbound frame: its declared fields, and its ``CHECKS``."""
    name = "".join(part.title() for part in frame.type.split("_"))
    return _serializer(frame.fields, name, CHECKS.get(frame))


def _ids(*names: str) -> type[serializers.Serializer]:
    return _serializer({name: In("int", low=1) for name in names}, "Ids")


RideId = _ids("ride_id")  # a ride_complete's ride is checked before its trace (dispatch.transport.off_loop)

def position(frame: dict) -> dict:
    """``inbound.POSITION`` checked by hand (its limits as declared): every cab sends one every few seconds, and a DRF serializer costs ~160 µs a frame."""
    errors = {}
    values = {}
    for name in ("lat", "lon"):
        low, high = inbound.POSITION.fields[name].low, inbound.POSITION.fields[name].high
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


def status(frame: dict) -> dict:
    """``inbound.STATUS`` checked by hand: after a restart every driver's first frame is its status, and a DRF serializer
    was two fifths of the consumer's work on a frame (docs/dispatch-benchmark.md, eighth round)."""
    value = frame.get("status")
    if not isinstance(value, str) or value not in DRIVER_STATUSES:
        raise ProtocolError("invalid", _("Mensagem inválida."), {"status": [
            str(_("Situação inválida: use %(choices)s.") % {"choices": ", ".join(DRIVER_STATUSES)})]})
    return {"status": value}


# What each role may send, and the check of each message.
_HAND_WRITTEN = {"position": position, "status": status}
INBOUND = {role: {kind: _HAND_WRITTEN.get(kind) if role == "driver" and kind in _HAND_WRITTEN else serializer_for(frame)
                  for kind, frame in frames.items()}
           for role, frames in inbound.INBOUND.items()}


def _too_deep(value, limit: int) -> bool:
    """Is ``value`` nested deeper than ``limit``? Iterative: a hostile frame cannot make it recurse."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def load(text: str | None):
    """A frame's JSON with bounded work: at most ``MAX_FRAME_BYTES`` and ``MAX_DEPTH`` levels, else a ProtocolError.

    A 50,000-level nested frame made ``json.loads`` raise RecursionError (an internal error, a 1011 close)."""
    if text is None:
        raise ProtocolError("binary_not_supported", _("Envie mensagens JSON em texto."))
    if len(text) > MAX_FRAME_BYTES or len(text.encode()) > MAX_FRAME_BYTES:
        raise ProtocolError("too_large", _("Mensagem grande demais."))
    try:
        frame = json.loads(text)
    except RecursionError:
        raise ProtocolError("too_deep", _("Mensagem com aninhamento demais.")) from None
    except ValueError:
        raise ProtocolError("malformed_json", _("JSON inválido.")) from None
    # Each level opens a bracket: a frame with few (every position) cannot be too deep, and is not walked.
    if text.count("{") + text.count("[") > MAX_DEPTH and _too_deep(frame, MAX_DEPTH):
        raise ProtocolError("too_deep", _("Mensagem com aninhamento demais."))
    return frame


def parse(role: str, text: str | None) -> tuple[str, dict]:
    frame = load(text)
    kind = kind_of(role, frame)
    return kind, validate(role, kind, frame)


def kind_of(role: str, frame) -> str:
    """The type of a loaded frame, one that ``role`` may send."""
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        raise ProtocolError("missing_type", _("Toda mensagem é um objeto JSON com o campo “type”."))
    if frame["type"] not in INBOUND[role]:
        raise ProtocolError("unknown_type", _("Tipo de mensagem desconhecido: %(type)s.") % {"type": frame["type"][:40]})
    return frame["type"]


def validate(role: str, kind: str, frame: dict, schema=None) -> dict:
    """The frame checked against the schema of its type (or ``schema``, a part of it), else a ProtocolError."""
    schema = schema or INBOUND[role][kind]
    if not isinstance(schema, type):  # a hand-written check (the position hot path)
        return schema(frame)
    serializer = schema(data=frame)
    if not serializer.is_valid():
        raise ProtocolError("invalid", _("Mensagem inválida."), _plain(serializer.errors))
    return serializer.validated_data


def _plain(errors):
    if isinstance(errors, dict):
        return {k: _plain(v) for k, v in errors.items()}
    if isinstance(errors, list):
        return [_plain(e) for e in errors]
    return str(errors)
