from rest_framework import viewsets

from backend.api.permissions import DimutranOrReadOwn, IsDimutran

from ..models import DatedParameter, MunicipalHoliday
from .serializers import DatedParameterSerializer, MunicipalHolidaySerializer


class DatedParameterViewSet(viewsets.ModelViewSet):
    """Dated parameters (UFM, UPFM, fees, population): DIMUTRAN only."""

    queryset = DatedParameter.objects.all()
    serializer_class = DatedParameterSerializer
    permission_classes = [IsDimutran]


class MunicipalHolidayViewSet(viewsets.ModelViewSet):
    """Muriaé's municipal holidays (Art. 45, II): DIMUTRAN edits; every user reads them (the meter needs them)."""

    queryset = MunicipalHoliday.objects.all()
    serializer_class = MunicipalHolidaySerializer
    permission_classes = [DimutranOrReadOwn]
