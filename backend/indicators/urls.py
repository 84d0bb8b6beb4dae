"""/dimutran/indicadores/: DIMUTRAN's page of indicators (the JSON is ``api/urls.py``)."""

from django.urls import path

from . import web

urlpatterns = [
    path("dimutran/indicadores/", web.indicators_page, name="indicators-page"),
    path("dados-abertos/", web.open_data_page, name="open-data-page"),
]
