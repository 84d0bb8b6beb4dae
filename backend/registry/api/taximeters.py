"""The taxímetro register's API (Art. 47): DIMUTRAN installs, removes and records aferições; holders read their own."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from backend.api.permissions import DimutranOrReadOwn, IsDimutran
from backend.api.validation import valid

from .. import selectors
from ..models import Taximeter, TaximeterAferition
from ..services import taximeters as services


class AferitionSerializer(serializers.ModelSerializer):
    class Meta:
        model = TaximeterAferition
        fields = ["id", "afered_on", "certificate", "seal", "recorded_at"]
        read_only_fields = ["recorded_at"]


class TaximeterSerializer(serializers.ModelSerializer):
    aferitions = AferitionSerializer(many=True, read_only=True)

    class Meta:
        model = Taximeter
        fields = ["id", "vehicle", "serial", "make", "model", "installer", "installed_on", "removed_on", "aferitions"]
        read_only_fields = ["removed_on"]


class RemovalSerializer(serializers.Serializer):
    removed_on = serializers.DateField()
    inmetro_permission = serializers.CharField(max_length=255)


class TaximeterViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = TaximeterSerializer
    permission_classes = [DimutranOrReadOwn]
    queryset = Taximeter.objects.none()  # the schema's model; get_queryset chooses the rows

    def get_queryset(self):
        return (Taximeter.objects.filter(vehicle__permit__in=selectors.permits_held_by(self.request.user))
                .prefetch_related("aferitions"))

    def perform_create(self, serializer):
        """Install a taxímetro in a cab, one at a time (Art. 47, §3)."""
        serializer.instance = services.install_taximeter(**serializer.validated_data)

    @extend_schema(request=AferitionSerializer, responses=TaximeterSerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsDimutran])
    def aferitions(self, request, pk=None):
        """Record an INMETRO aferição with its certificate and seal (Art. 47, §1-§2)."""
        data = valid(AferitionSerializer, request)
        meter = get_object_or_404(Taximeter, pk=pk)
        services.record_aferition(taximeter=meter, **data)
        return Response(TaximeterSerializer(meter).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RemovalSerializer, responses=TaximeterSerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsDimutran])
    def remove(self, request, pk=None):
        """The taxímetro leaves the cab with INMETRO's permission (Art. 47, §3)."""
        data = valid(RemovalSerializer, request)
        meter = services.remove_taximeter(taximeter=get_object_or_404(Taximeter, pk=pk), **data)
        return Response(TaximeterSerializer(meter).data)
