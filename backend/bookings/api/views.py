"""Bookings over the API: a passenger books for themself; an operator (DIMUTRAN staff) books for a caller."""


from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.throttling import BookingThrottle
from backend.trips.api.authentication import PassengerAuthentication

from .. import services
from ..models import Booking
from .serializers import BookingSerializer


def booking_payload(b: Booking) -> dict:
    return {
        "id": b.pk, "status": b.status, "status_label": b.situation(),
        "ride_status": b.ride.status if b.ride_id else None,  # what became of the ride once dispatched
        "pickup": {"lat": b.pickup_lat, "lon": b.pickup_lon, "address": b.pickup_address},
        "destination": {"lat": b.destination_lat, "lon": b.destination_lon, "address": b.destination_address}
        if b.destination_lat is not None else None,
        "pickup_at": b.pickup_at.isoformat(), "pickup_at_display": f"{timezone.localtime(b.pickup_at):%d/%m/%Y %H:%M}",
        "dispatch_at": b.dispatch_at.isoformat(), "ride_id": b.ride_id, "created_by": b.created_by,
        "passenger": b.passenger.name if b.passenger_id else b.caller_name,
        "phone": b.passenger.phone if b.passenger_id else b.caller_phone, "note": b.note,
    }


class PassengerOrOperator(BasePermission):
    message = _("Entre como passageiro ou como operador da central.")

    def has_permission(self, request, view):
        return hasattr(request.user, "passenger") or bool(request.user and request.user.is_staff)


class _BookingView(APIView):
    authentication_classes = [PassengerAuthentication, *APIView.authentication_classes]  # operators: expiring token or session
    permission_classes = [PassengerOrOperator]

    def passenger(self):
        return getattr(self.request.user, "passenger", None)


class BookingsView(_BookingView):
    """GET: the passenger's bookings, or (operators) every booking still to dispatch, soonest first.
    POST ``{pickup, destination?, pickup_at, caller_name?, caller_phone?}``: book (Art. 66)."""

    def get_throttles(self):
        return [BookingThrottle()] if self.request.method == "POST" else super().get_throttles()

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        passenger = self.passenger()
        rows = (Booking.objects.filter(passenger=passenger).select_related("ride").order_by("-pickup_at")[:50] if passenger
                else services.upcoming())
        return Response({"bookings": [booking_payload(b) for b in rows]})

    @extend_schema(request=BookingSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        serializer = BookingSerializer(data=request.data if isinstance(request.data, dict) else {})
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        passenger = self.passenger()
        if passenger is None and not (data["caller_name"] and data["caller_phone"]):
            raise ValidationError({"caller_phone": [_("Informe o nome e o telefone de quem ligou.")]})
        booking = services.book(passenger=passenger, **data)
        return Response(booking_payload(booking), status=status.HTTP_201_CREATED)


class BookingCancelView(_BookingView):
    """POST: cancel a booking not yet dispatched (a passenger their own; an operator any)."""

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT})
    def post(self, request, pk: int):
        try:
            booking = services.cancel(pk, passenger=self.passenger())
        except services.BookingError as exc:
            raise ValidationError({"detail": exc.message, "code": exc.code}) from None
        return Response(booking_payload(booking))
