from rest_framework import mixins, viewsets

from backend.api.permissions import DimutranOrReadOwn, IsDimutran

from .. import services
from ..models import DatedParameter, MunicipalHoliday
from .serializers import DatedParameterSerializer, MunicipalHolidaySerializer


class DatedParameterViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Dated parameters (UFM, UPFM, fees, population): DIMUTRAN only, append-only (a correction is a new act)."""

    queryset = DatedParameter.objects.all()
    serializer_class = DatedParameterSerializer
    permission_classes = [IsDimutran]

    def perform_create(self, serializer):
        serializer.instance = services.record_act(**serializer.validated_data)


class MunicipalHolidayViewSet(viewsets.ModelViewSet):
    """Muriaé's municipal holidays (Art. 45, II): DIMUTRAN edits; every user reads them (the meter needs them)."""

    queryset = MunicipalHoliday.objects.all()
    serializer_class = MunicipalHolidaySerializer
    permission_classes = [DimutranOrReadOwn]
