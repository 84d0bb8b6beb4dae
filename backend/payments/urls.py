from django.urls import path

from . import api

urlpatterns = [
    path("me/pix-key/", api.MyPixKeyView.as_view(), name="my-pix-key"),
    path("me/pix-terms/", api.MyPixTermsView.as_view(), name="my-pix-terms"),
    path("rides/<int:ride_id>/pix/", api.RidePixView.as_view(), name="ride-pix"),
]
