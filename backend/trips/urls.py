from django.urls import path

from .api import PassengerErasureView, ReleaseFareView

urlpatterns = [
    path("rides/<int:pk>/release-fare/", ReleaseFareView.as_view(), name="ride-release-fare"),
    path("passengers/me/", PassengerErasureView.as_view(), name="passenger-erasure"),
]
