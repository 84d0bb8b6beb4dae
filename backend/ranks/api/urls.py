from django.urls import path

from backend.api.routers import IdSimpleRouter

from . import views

router = IdSimpleRouter()
router.register("ranks", views.RankViewSet, basename="rank")
router.register("rank-checkins", views.CheckInViewSet, basename="rank-checkin")
router.register("rank-swaps", views.SwapViewSet, basename="rank-swap")
router.register("contests", views.ContestViewSet, basename="contest")
router.register("absence-justifications", views.JustificationViewSet, basename="absence-justification")

urlpatterns = [
    path("geo/central-zone.geojson", views.CentralZoneGeoJSON.as_view(), name="geo-central-zone"),
    path("geo/boundary.geojson", views.BoundaryGeoJSON.as_view(), name="geo-boundary"),
    path("geo/ranks.geojson", views.RanksGeoJSON.as_view(), name="geo-ranks"),
    path("geo/central-zone/", views.CentralZoneUploadView.as_view(), name="geo-central-zone-upload"),
    path("zones/classify/", views.ClassifyView.as_view(), name="zones-classify"),
    *router.urls,
]
