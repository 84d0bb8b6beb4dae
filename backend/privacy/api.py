"""A passenger erases their own data (LGPD, art. 18, VI): ``DELETE /api/passengers/me/``."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.permissions import IsPassenger
from backend.trips.api.authentication import PassengerAuthentication

from . import retention


class PassengerErasureView(APIView):
    """LGPD, art. 18, VI: the passenger's name, phone and token are erased; their rides are kept anonymised."""

    authentication_classes = [PassengerAuthentication]
    permission_classes = [IsPassenger]

    @extend_schema(
        tags=["trips"], request=None,
        parameters=[OpenApiParameter("Authorization", OpenApiTypes.STR, OpenApiParameter.HEADER, required=True,
                                     description="Passenger <token>")],
        responses={204: None, 400: inline_serializer("ErasureRefused", {"detail": serializers.CharField()}),
                   401: inline_serializer("PassengerUnauthenticated", {"detail": serializers.CharField()})},
    )
    def delete(self, request):
        try:
            retention.erase_passenger(request.user.passenger.pk)
        except retention.PassengerHasOpenRide as exc:
            raise ValidationError({"detail": str(exc)}) from None
        return Response(status=status.HTTP_204_NO_CONTENT)
