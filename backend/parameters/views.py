from rest_framework import serializers, viewsets

from backend.api.permissions import DimutranOrReadOwn, IsDimutran

from .models import DatedParameter, MunicipalHoliday


class DatedParameterSerializer(serializers.ModelSerializer):
    class Meta:
        model = DatedParameter
        fields = ["id", "name", "effective_from", "value", "source"]


class MunicipalHolidaySerializer(serializers.ModelSerializer):
    class Meta:
        model = MunicipalHoliday
        fields = ["id", "date", "name", "source", "every_year"]


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
