from rest_framework import serializers

from ..models import DatedParameter, MunicipalHoliday


class DatedParameterSerializer(serializers.ModelSerializer):
    class Meta:
        model = DatedParameter
        fields = ["id", "name", "effective_from", "value", "source"]


class MunicipalHolidaySerializer(serializers.ModelSerializer):
    class Meta:
        model = MunicipalHoliday
        fields = ["id", "date", "name", "source", "every_year"]
