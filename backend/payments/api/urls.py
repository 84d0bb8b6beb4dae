from django.urls import path

from . import views

urlpatterns = [
    path("me/pix-key/", views.MyPixKeyView.as_view(), name="my-pix-key"),
    path("me/pix-terms/", views.MyPixTermsView.as_view(), name="my-pix-terms"),
    path("rides/<int:ride_id>/pix/", views.RidePixView.as_view(), name="ride-pix"),
]
