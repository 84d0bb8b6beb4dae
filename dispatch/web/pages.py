"""Web front-ends of the radio-taxi dispatch (Art. 66): the operators' console and the passenger page.

The pages are plain Django templates with plain JavaScript (no build step) and
a vendored Leaflet (no CDN, no map tiles). Everything live goes over the
websockets of docs/dispatch-protocol.md; the two small JSON views here fill what
the events do not carry (the offer history of a ride, the rank queues).
"""

import json
import re

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.db.models import Count, Q
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from backend.trips.models import Ride
from dispatch.models import Offer
from dispatch.web.shift import ShiftQuery, callers_rides, is_callers, shift_report
from taxilaw.brazil import phone_tail

MAX_LOOKUP_BODY = 1024  # a phone lookup's JSON body: anything longer is not one


@never_cache
@staff_member_required  # anyone else goes to /admin/login/?next=/central/
def console(request):
    return render(request, "dispatch/console.html", {"title": "Central de rádio-táxi"})


@never_cache
def passenger(request):
    return render(request, "dispatch/passenger.html", {"title": "Pedir um táxi", "central_phone": settings.DISPATCH_CENTRAL_PHONE})


@require_GET
@never_cache
def ride_offers(request, ride_id: int):
    """The offer history of a ride (permit, status, reason, distance, times) and the phone to call back: DIMUTRAN staff only."""
    if not (request.user.is_authenticated and request.user.is_staff):
        return JsonResponse({"detail": "Acesso restrito aos operadores da DIMUTRAN."}, status=403)
    offers = Offer.objects.filter(ride_id=ride_id).select_related("cab__permit").order_by("created_at")
    ride = Ride.objects.filter(pk=ride_id).select_related("passenger").first()
    phone = (ride.passenger.phone if ride.passenger_id else ride.caller_phone) if ride else ""
    return JsonResponse({
        "ride_id": ride_id,
        "phone": phone,
        "offers": [
            {
                "id": o.pk,
                "permit": o.cab.permit.number,
                "status": o.status,
                "status_label": str(o.get_status_display()),
                "reason": o.reason,
                "distance_m": round(o.distance_m) if o.distance_m is not None else None,
                "created_at": o.created_at.isoformat(),
                "responded_at": o.responded_at.isoformat() if o.responded_at else None,
            }
            for o in offers
        ],
    })


@require_GET
@never_cache
def rank_queues(request):
    """How many cabs wait at each rank now (open check-ins); counts only, no permits: public."""
    from backend.ranks.models import Rank

    rows = Rank.objects.filter(active=True).annotate(queue=Count("checkins", filter=Q(checkins__checked_out_at__isnull=True)))
    return JsonResponse({"queues": {str(r.pk): r.queue for r in rows}})


@require_POST
@never_cache
def caller_history(request):
    """A known caller's recent pickups and names, by phone (the operators' phone booking): DIMUTRAN staff only.

    POST ``{"phone": "..."}``: a phone number is personal data and never travels in a URL (URLs reach access
    logs, proxies and browser history); the session's CSRF token comes with it."""
    if not (request.user.is_authenticated and request.user.is_staff):
        return JsonResponse({"detail": "Acesso restrito aos operadores da DIMUTRAN."}, status=403)
    try:
        body = json.loads(request.body[:MAX_LOOKUP_BODY] or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict) or not isinstance(body.get("phone", ""), str):
        return JsonResponse({"detail": "Envie um objeto JSON com o telefone: {\"phone\": \"32999991234\"}."}, status=400)
    digits = re.sub(r"\D", "", body.get("phone", ""))[:13]
    if len(digits) < 8:
        return JsonResponse({"phone": digits, "names": [], "pickups": []})
    tail = phone_tail(digits)  # "(32) 99999-1234", "+5532999991234" and "999991234" are one caller
    rides = callers_rides(Ride.objects.all(), tail).order_by("-requested_at")[:50]
    names, pickups = {}, {}
    for ride in rides:
        if not is_callers(ride, tail):
            continue
        name = ride.caller_name or (ride.passenger.name if ride.passenger_id else "")
        if name:
            names.setdefault(name, None)
        key = (round(ride.pickup_lat, 4), round(ride.pickup_lon, 4))
        if key not in pickups:
            pickups[key] = {"lat": ride.pickup_lat, "lon": ride.pickup_lon, "address": ride.pickup_address,
                            "requested_at": ride.requested_at.isoformat()}
    return JsonResponse({"phone": digits, "names": list(names)[:5], "pickups": list(pickups.values())[:5]})


@require_POST
@never_cache
def shift_rides(request):
    """The shift's rides and totals (dispatch.web.shift): DIMUTRAN staff only.

    POST ``{"hours": 8, "state": "served", "search": "...", "page": 1}``: the search may be a phone number, which
    never travels in a URL (see ``caller_history``)."""
    if not (request.user.is_authenticated and request.user.is_staff):
        return JsonResponse({"detail": "Acesso restrito aos operadores da DIMUTRAN."}, status=403)
    try:
        body = json.loads(request.body[:MAX_LOOKUP_BODY] or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        return JsonResponse({"detail": "Envie um objeto JSON: {\"hours\": 8, \"state\": \"\", \"search\": \"\", \"page\": 1}."}, status=400)
    return JsonResponse(shift_report(ShiftQuery.parse(body)))
