from django.urls import path

from . import views

urlpatterns = [
    path("reports/driver-cancellations/", views.DriverCancellationReportView.as_view(), name="driver-cancellation-report"),
]
