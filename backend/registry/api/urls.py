from django.urls import path

from backend.api.routers import IdRouter

from . import taximeters, views

router = IdRouter()
router.register("people", views.PersonViewSet, basename="person")
router.register("permits", views.PermitViewSet, basename="permit")
router.register("renewals", views.RenewalViewSet, basename="renewal")
router.register("vehicles", views.VehicleViewSet, basename="vehicle")
router.register("inspections", views.InspectionViewSet, basename="inspection")
router.register("auxiliaries", views.AuxiliaryViewSet, basename="auxiliary")
router.register("transfers", views.TransferViewSet, basename="transfer")
router.register("inquiries", views.InquiryViewSet, basename="inquiry")
router.register("cmts", views.CmtViewSet, basename="cmt")
router.register("suspensions", views.SuspensionViewSet, basename="suspension")
router.register("taximeters", taximeters.TaximeterViewSet, basename="taximeter")

urlpatterns = [
    path("me/", views.MeView.as_view(), name="me"),
    *router.urls,
]
