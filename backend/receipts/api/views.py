"""The passenger's rides and receipts over the API (``Authorization: Passenger <token>``)."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.permissions import IsPassenger
from backend.payments import snapshot as payment_snapshot
from backend.trips.api.authentication import PassengerAuthentication
from backend.trips.models import Ride
from taxilaw.brazil import brl

from .. import documents, receipt_cache, receipts


class _PassengerView:
    authentication_classes = [PassengerAuthentication]
    permission_classes = [IsPassenger]

    def own_rides(self):
        return Ride.objects.filter(passenger=self.request.auth)


class PassengerRidesView(_PassengerView, ListAPIView):
    """The passenger's rides, newest first (paginated: ``?limit=&offset=``), with the receipt's links when completed."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return self.own_rides().select_related("rating").prefetch_related("complaints").order_by("-requested_at")

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        rows = [{
            "id": r.pk, "status": r.status, "status_label": str(r.get_status_display()),
            "requested_at": r.requested_at.isoformat(), "completed_at": r.completed_at.isoformat() if r.completed_at else None,
            "pickup_address": r.pickup_address, "destination_address": r.destination_address,
            "fare": str(r.fare) if r.fare is not None else None, "fare_display": brl(r.fare),
            "fare_review": payment_snapshot.fare_review(r),  # held for DIMUTRAN's review: not charged yet
            "permit": (r.credentials or {}).get("permit", ""),
            "receipt": receipts.links(r) if r.status == "completed" else None,
            # what the page offers after a reload: one rating and one complaint per ride
            "rated": hasattr(r, "rating"),
            "complaint": next(({"id": c.pk} for c in r.complaints.all()), None),
        } for r in page]
        return self.get_paginated_response(rows)


class PassengerReceiptView(_PassengerView, APIView):
    """One of the passenger's rides as its receipt (JSON)."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, ride_id: int):
        try:
            return Response(receipt_cache.receipt_data(get_object_or_404(self.own_rides(), pk=ride_id)))
        except receipt_cache.Busy:
            return busy()


class PassengerReceiptPdfView(_PassengerView, APIView):
    """One of the passenger's completed rides as its receipt in PDF."""

    @extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY})
    def get(self, request, ride_id: int):
        return pdf_response(get_object_or_404(self.own_rides().filter(status="completed"), pk=ride_id))


def busy() -> HttpResponse:
    """503 while this process builds another receipt (``receipt_cache``): try again in a few seconds."""
    response = HttpResponse(_("Muitos recibos sendo gerados agora: tente de novo em alguns segundos."),
                            status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(receipt_cache.RETRY_AFTER_SECONDS)
    return response


def pdf_response(ride: Ride) -> HttpResponse:
    """The receipt's PDF, built at most once at a time in this process (``receipt_cache``)."""
    try:
        pdf = receipt_cache.receipt_pdf(ride)
    except receipt_cache.Busy:
        return busy()
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{documents.pdf_filename(ride.pk)}"'
    return response
