"""A receipt by its signed link (/recibos/<token>/): the page and its PDF, for the passenger and DIMUTRAN."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from backend.trips.models import Ride

from . import documents, receipts
from .api.views import pdf_response


def _data(token: str) -> dict:
    ride_id = receipts.ride_id_from(token)
    if ride_id is None:
        raise Http404
    return receipts.receipt(get_object_or_404(Ride.objects.filter(status="completed"), pk=ride_id))


@require_GET
def receipt_page(request, token: str):
    data = _data(token)
    return render(request, "receipts/receipt.html", {"r": data, "rows": documents.receipt_rows(data), "token": token})


@require_GET
def receipt_pdf(request, token: str):
    return pdf_response(_data(token))
