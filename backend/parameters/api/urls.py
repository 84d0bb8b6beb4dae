from backend.api.routers import IdRouter

from .views import DatedParameterViewSet, MunicipalHolidayViewSet

router = IdRouter()
router.register("parameters", DatedParameterViewSet, basename="parameter")
router.register("municipal-holidays", MunicipalHolidayViewSet, basename="municipal-holiday")
urlpatterns = router.urls
