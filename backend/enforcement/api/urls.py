from django.urls import path

from backend.api.routers import IdRouter

from . import views

router = IdRouter()
router.register("infraction-types", views.InfractionTypeViewSet, basename="infraction-type")
router.register("autos", views.AutoViewSet, basename="auto")
router.register("appeals", views.AppealViewSet, basename="appeal")
router.register("penalties", views.PenaltyViewSet, basename="penalty")
router.register("complaints", views.ComplaintViewSet, basename="complaint")

urlpatterns = [
    path("infractor-records/<int:person_id>/", views.InfractorRecordView.as_view(), name="infractor-record"),
    *router.urls,
]
