"""Payments API: a person's Pix key; a ride's Pix charge and its payment, recorded once (docs/payments.md).

The passenger asks for their ride's payment with their passenger token (``Authorization: Passenger <token>``),
the driver app and the operators with their login; another person's ride answers 404.
"""

from __future__ import annotations

from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.registry.models import Person
from backend.trips.api.authentication import PassengerAuthentication
from backend.trips.models import Ride

from .. import services, snapshot
from ..models import PixKey
from .serializers import PaymentRequest, PaymentView, PixKeySerializer


def _person(request) -> Person:
    """The logged-in driver, permit holder or staff member as a registry Person (a passenger is none)."""
    is_user = request.user.is_authenticated and not hasattr(request.user, "passenger")
    person = Person.objects.filter(user=request.user).first() if is_user else None
    if person is None:
        raise NotFound()
    return person


class MyPixKeyView(APIView):
    """The logged-in driver's (permit holder's or auxiliary's) Pix key."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PixKeySerializer)
    def get(self, request):
        key = PixKey.objects.filter(person=_person(request)).first()
        if key is None:
            raise NotFound()
        return Response(PixKeySerializer(key).data)

    @extend_schema(request=PixKeySerializer, responses=PixKeySerializer)
    def put(self, request):
        person = _person(request)
        body = PixKeySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        key = services.register_pix_key(person, body.validated_data["kind"], body.validated_data["key"])
        return Response(PixKeySerializer(key).data)

    @extend_schema(responses={204: None})
    def delete(self, request):
        PixKey.objects.filter(person=_person(request)).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class MyPixTermsView(APIView):
    """Whose Pix key receives the fares the logged-in driver drives now (the authorization's term)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=inline_serializer("PixTerms", {
        "key": serializers.CharField(allow_null=True), "receiver": serializers.CharField(),
        "city": serializers.CharField(), "receiver_is_holder": serializers.BooleanField()}))
    def get(self, request):
        terms = services.pix_terms(_person(request))
        if terms is None:
            raise NotFound(detail=_("Você não conduz nenhum táxi agora."))
        return Response(terms)


def _visible_ride(request, ride_id: int) -> Ride:
    """The ride if the caller may see it: staff, its driver, its permit's holder, or its passenger (token)."""
    rides = Ride.objects.select_related("permit", "permit__holder", "driver")
    passenger = getattr(request.user, "passenger", None)
    if passenger is not None:
        return get_object_or_404(rides, pk=ride_id, passenger=passenger)
    if request.user.is_staff:
        return get_object_or_404(rides, pk=ride_id)
    person = _person(request)
    return get_object_or_404(rides.filter(Q(driver=person) | Q(permit__holder=person)), pk=ride_id)


class RidePixView(APIView):
    """The static Pix of a completed ride's fare on the receiver's key (BR Code and "Pix copia e cola")."""

    authentication_classes = [PassengerAuthentication, *APIView.authentication_classes]
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=inline_serializer("PixCharge", {
        "payload": serializers.CharField(), "key": serializers.CharField(), "receiver": serializers.CharField(),
        "amount": serializers.CharField()}))
    def get(self, request, ride_id: int):
        ride = _visible_ride(request, ride_id)
        charge = services.pix_charge(ride)
        if charge is None:
            raise NotFound(detail=_("Sem chave Pix cadastrada para quem recebe esta corrida, ou corrida sem tarifa."))
        return Response(charge.as_dict())


class RidePaymentView(APIView):
    """How a completed ride was paid: the driver records it once (POST); the ride's people read it (GET).

    Routed by ``dispatch.payments``, which announces the paid ride."""

    authentication_classes = [PassengerAuthentication, *APIView.authentication_classes]

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(responses=PaymentView)
    def get(self, request, ride_id: int):
        body = snapshot.payment(_visible_ride(request, ride_id))
        if body is None:
            raise NotFound(detail=_("Pagamento ainda não registrado."))
        return Response(body)

    @extend_schema(request=PaymentRequest, responses={201: PaymentView})
    def post(self, request, ride_id: int):
        person = _person(request)
        get_object_or_404(Ride, pk=ride_id, driver=person)  # another driver's ride does not exist for this one
        body = PaymentRequest(data=request.data)
        body.is_valid(raise_exception=True)
        payment = services.record_payment(ride_id, person, body.validated_data["method"],
                                          card_machine=body.validated_data["card_machine"])
        self.recorded = payment
        return Response(snapshot.payment(payment.ride), status=status.HTTP_201_CREATED)
