"""The server's side of the wire (docs/dispatch-protocol.md): the declarations of every frame, in and out, live in
:mod:`taxiwire` (framework-free, shared with the simulator and the driver app) and are re-exported here, so a
sender writes ``wire.OFFER(offer=...)``; :func:`error` turns a refusal into its ``error`` frame. Inbound frames are
read and checked by ``dispatch.protocol`` (``parse``), re-exported here too.
"""

from __future__ import annotations

from taxiwire.bodies import *  # noqa: F403  (the objects frames carry: RIDE, CAB, ...)
from taxiwire.inbound import ANSWERS  # noqa: F401
from taxiwire.limits import *  # noqa: F403
from taxiwire.outbound import *  # noqa: F403
from taxiwire.outbound import FRAMES, OUTBOUND, Frame, validate  # noqa: F401
from taxiwire.shapes import DATETIME, DECIMAL, ContractError, ListOf, Nullable, OneOf, Shape, type_name  # noqa: F401

_INBOUND = ("INBOUND", "ProtocolError", "parse")


def __getattr__(name: str):
    """The inbound checks (``dispatch.protocol``), imported when first used: the outbound half is imported
    before Django is set up (``dispatch.events`` in an offering worker), the inbound one needs DRF."""
    if name in _INBOUND:
        from . import protocol

        return getattr(protocol, name)
    raise AttributeError(name)


def error(exc: Exception, trip_id: str | None = None) -> dict:
    """The ``error`` frame for a refusal: protocol, dispatcher or law (one place for every consumer)."""
    from backend.api_errors import LawViolation

    from .errors import DispatchError
    from .protocol import ProtocolError

    extra = {"trip_id": trip_id} if trip_id is not None else {}
    if isinstance(exc, ProtocolError):
        return ERROR(code=exc.code, message=exc.message, **({"fields": exc.fields} if exc.fields else {}), **extra)  # noqa: F405
    if isinstance(exc, DispatchError):
        return ERROR(code=exc.code, message=exc.message, **extra)  # noqa: F405
    if isinstance(exc, LawViolation):
        return ERROR(code="law", message=str(exc.detail), reasons=exc.reasons, **extra)  # noqa: F405
    raise TypeError(f"not a refusal: {exc!r}")
