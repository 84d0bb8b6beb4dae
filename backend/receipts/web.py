"""A receipt by its signed link (/recibos/<token>/): the page and its PDF, for the passenger and DIMUTRAN."""

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from backend.trips.models import Ride

from . import documents, receipt_cache, receipts
from .api.views import busy, pdf_response


def _ride(token: str) -> Ride:
    """The ride a signed link names: a forged, expired or revoked link is a 404."""
    ride_id = receipts.ride_id_from(token)
    ride = Ride.objects.select_related("passenger").filter(pk=ride_id).first() if ride_id is not None else None
    if ride is None or not receipts.linkable(ride):
        raise Http404
    return ride


@require_GET
def receipt_page(request, token: str):
    try:
        data = receipt_cache.receipt_data(_ride(token))
    except receipt_cache.Busy:
        return busy()
    return render(request, "receipts/receipt.html", {"r": data, "rows": documents.receipt_rows(data), "token": token})


@require_GET
def receipt_pdf(request, token: str):
    return pdf_response(_ride(token))
