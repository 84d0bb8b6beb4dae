from django.urls import path

from . import reports

urlpatterns = [
    path("tariff-studies/<int:pk>/report/", reports.study_report_html, name="tariff-study-report"),
    path("tariff-studies/<int:pk>/report.pdf", reports.study_report_pdf, name="tariff-study-report-pdf"),
]
