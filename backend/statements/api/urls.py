"""/api/statements/...: the REST API of the weekly statements."""

from django.urls import path

from . import views

statement_list = views.WeeklyStatementViewSet.as_view({"get": "list"})
statement_detail = views.WeeklyStatementViewSet.as_view({"get": "retrieve"})
statement_current = views.WeeklyStatementViewSet.as_view({"get": "current"})

urlpatterns = [
    path("statements/", statement_list, name="statement-list"),
    path("statements/current/", statement_current, name="statement-current"),
    path("statements/<int:pk>/", statement_detail, name="statement-detail"),
    path("statements/<int:pk>.csv", views.StatementCsvView.as_view(), name="statement-csv"),
]
