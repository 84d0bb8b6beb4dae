from django.urls import path

from . import views

urlpatterns = [
    path("ratings/", views.RateRideView.as_view(), name="ride-rating"),
    path("ratings/report/", views.RatingReportView.as_view(), name="rating-report"),
]
