"""/dimutran/indicadores/: DIMUTRAN's page of indicators (the JSON is ``api/urls.py``)."""

from django.urls import path, re_path

from . import web

urlpatterns = [
    path("dimutran/indicadores/", web.indicators_page, name="indicators-page"),
    re_path(r"^dimutran/relatorios/(?P<year>20\d\d)-(?P<month>\d\d)\.pdf$", web.monthly_report_pdf, name="monthly-report-pdf"),
    path("dados-abertos/", web.open_data_page, name="open-data-page"),
]
