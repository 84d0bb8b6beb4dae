"""/statements/<id>.pdf and the /extratos/ page (the REST API is ``api/urls.py``)."""

from django.urls import path

from . import web
from .api import views

urlpatterns = [
    path("statements/<int:pk>.pdf", views.StatementPdfView.as_view(), name="statement-pdf"),
    path("extratos/em-curso/<int:permit_id>/<int:driver_id>.pdf", web.running_statement_pdf, name="statement-running-pdf"),
    path("extratos/", web.statements_page, name="statements-page"),
    path("extratos/entrar/", web.StatementsLoginView.as_view(), name="statements-login"),
    path("extratos/sair/", web.logout_view, name="statements-logout"),
]
