from django.urls import path

from . import web

urlpatterns = [
    path("recibos/<str:token>.pdf", web.receipt_pdf, name="receipt-pdf"),
    path("recibos/<str:token>/", web.receipt_page, name="receipt-page"),
]
