"""The objects frames carry (a ride, a cab, an offer...), declared once for every sender and reader."""

from __future__ import annotations

from .shapes import DATETIME, DECIMAL, ListOf, Nullable, OneOf, Shape

# The law core's vocabularies, spelled here (this package imports nothing of the project);
# tests/test_no_frame_literals.py checks they match taxilaw.accessibility.FEATURES and taxilaw.cancellation.
ACCESSIBILITY_NEEDS = OneOf(("wheelchair_accessible", "child_seat"))
CANCEL_REASONS = OneOf(("passenger_absent", "passenger_asked", "vehicle_problem"))
RIDE_STATUSES = OneOf(("requested", "offered", "accepted", "arriving", "on_board", "completed", "cancelled"))
CAB_STATUSES = OneOf(("livre", "a_caminho", "ocupado", "fora_de_servico"))

POINT = Shape("point", {"lat": float, "lon": float, "address": str})
LATLON = Shape("latlon", {"lat": float, "lon": float})
CVI = Shape("cvi", {"plate": str, "make": str, "model": str, "colour": str, "permit": str})
DRIVER = Shape("driver", {"name": str, "cmt": Nullable(str)})
CAB = Shape("cab", {"id": int, "permit_id": int, "permit": str, "status": CAB_STATUSES, "online": bool,
                    "lat": Nullable(float), "lon": Nullable(float), "zone": str, "driver": Nullable(str)})
PAYMENT = Shape("payment", {"method": str, "method_display": str, "collector": str, "receiver": str, "amount": DECIMAL},
                optional={"pix": str, "pix_qr": str})  # 1.3 (docs/payments.md)
FARE_REVIEW = Shape("fare review", {"code": str, "title": str, "message": str})  # 1.5 (docs/payments.md)
RIDE = Shape("ride", {
    "id": int, "version": int, "status": RIDE_STATUSES, "pickup": POINT, "destination": Nullable(POINT),
    "passenger": str, "escalated": bool, "requested_at": Nullable(DATETIME), "accepted_at": Nullable(DATETIME),
    "completed_at": Nullable(DATETIME), "cancelled_at": Nullable(DATETIME), "fare": Nullable(DECIMAL),
    "permit": Nullable(str), "payment": Nullable(PAYMENT),
}, optional={"cvi": Nullable(CVI), "driver": Nullable(DRIVER), "cab_position": Nullable(LATLON),
             # 1.3: who cancelled (passenger | operator | driver | "") and why, for the passenger page to explain
             "cancelled_by": str, "cancel_reason": str,
             # an escalated ride still waiting: when it is given up (dispatch.rides.give_up), the console's countdown
             "gives_up_at": DATETIME,
             # 1.4, to the ride's driver only: the passenger's phone, when "Cheguei" was said and from when a
             # no-show may be recorded (taxilaw.cancellation)
             "passenger_phone": str, "arriving_at": Nullable(DATETIME), "no_show_at": Nullable(DATETIME),
             # 1.5: present while the fare is held for DIMUTRAN's review: not charged, no BR Code, not payable
             "fare_review": FARE_REVIEW,
             # 1.6: what the vehicle must have (taxilaw.accessibility.FEATURES), the same in pt-BR, and, while the
             # ride waits escalated, why no cab was found (docs/passenger-safety.md)
             "needs": ListOf(ACCESSIBILITY_NEEDS), "needs_display": str, "needs_unmet": str,
             # 1.6: from the accept, the code the passenger's page and the driver's app both show (docs/passenger-safety.md)
             "boarding_code": str})
OFFER_LOG = Shape("offer_log", {"permit": str, "status": str, "reason": str}, optional={"cancel_reason": str})
OPERATOR_RIDE = Shape("ride + offers", {**RIDE.fields, "offers": ListOf(OFFER_LOG)}, RIDE.optional)
OFFER_STATUSES = OneOf(("pending", "accepted", "declined", "expired", "withdrawn", "cancelled"))
OFFER_PASSENGER = Shape("offer passenger", {"name": str, "phone": str})
OFFER_BODY = Shape("offer", {"id": int, "ride_id": int, "status": OFFER_STATUSES, "expires_at": DATETIME,
                             "distance_m": Nullable(int), "reason": str, "pickup": POINT},
                   optional={"passenger": OFFER_PASSENGER, "destination": Nullable(POINT)})  # 1.4
CAB_POSITION = Shape("cab position", {"id": int, "lat": float, "lon": float, "zone": str})
REASON = Shape("reason", {"article": str, "code": str, "message": str})
SOS_POSITION = Shape("sos position", {"source": OneOf(("passenger", "cab")), "lat": float, "lon": float, "at": Nullable(DATETIME)},
                     optional={"accuracy_m": Nullable(float)})
SOS = Shape("sos", {"id": int, "ride_id": int, "raised_at": DATETIME, "ride_status": RIDE_STATUSES, "passenger": str,
                    "passenger_phone": str, "permit": str, "plate": str, "driver": str, "positions": ListOf(SOS_POSITION)})


