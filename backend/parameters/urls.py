from rest_framework.routers import DefaultRouter

from .views import DatedParameterViewSet, MunicipalHolidayViewSet

router = DefaultRouter()
router.register("parameters", DatedParameterViewSet, basename="parameter")
router.register("municipal-holidays", MunicipalHolidayViewSet, basename="municipal-holiday")
urlpatterns = router.urls
