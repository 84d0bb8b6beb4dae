from django.urls import path

from . import views

urlpatterns = [
    path("auth/token/", views.TokenView.as_view(), name="api-token"),
    path("auth/logout/", views.LogoutView.as_view(), name="api-logout"),
]
