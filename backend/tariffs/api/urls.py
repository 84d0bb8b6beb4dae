from django.urls import path

from backend.api.routers import IdRouter

from . import views

router = IdRouter()
router.register("tariffs", views.TariffDecreeViewSet, basename="tariff")
router.register("correction-tables", views.CorrectionTableViewSet, basename="correction-table")
router.register("tariff-studies", views.TariffStudyViewSet, basename="tariff-study")

urlpatterns = [
    path("fare-estimate/", views.FareEstimateView.as_view(), name="fare-estimate"),
    path("meter/recompute/", views.MeterRecomputeView.as_view(), name="meter-recompute"),
    *router.urls,
]
