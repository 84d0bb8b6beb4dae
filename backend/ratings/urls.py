from django.urls import path

from . import api

urlpatterns = [
    path("api/ratings/", api.RateRideView.as_view(), name="ride-rating"),
    path("api/ratings/report/", api.RatingReportView.as_view(), name="rating-report"),
]
