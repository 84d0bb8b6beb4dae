"""/api/statements/..., /statements/<id>.pdf and the /extratos/ page."""

from django.urls import path

from . import api, web

statement_list = api.WeeklyStatementViewSet.as_view({"get": "list"})
statement_detail = api.WeeklyStatementViewSet.as_view({"get": "retrieve"})
statement_current = api.WeeklyStatementViewSet.as_view({"get": "current"})

urlpatterns = [
    path("api/statements/", statement_list, name="statement-list"),
    path("api/statements/current/", statement_current, name="statement-current"),
    path("api/statements/<int:pk>/", statement_detail, name="statement-detail"),
    path("api/statements/<int:pk>.csv", api.StatementCsvView.as_view(), name="statement-csv"),
    path("statements/<int:pk>.pdf", api.StatementPdfView.as_view(), name="statement-pdf"),
    path("extratos/", web.statements_page, name="statements-page"),
    path("extratos/entrar/", web.StatementsLoginView.as_view(), name="statements-login"),
    path("extratos/sair/", web.logout_view, name="statements-logout"),
]
