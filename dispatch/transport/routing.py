from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

from dispatch.consumers import DriverConsumer, OperatorConsumer, PassengerConsumer

websocket_application = URLRouter(
    [
        path("ws/driver/", DriverConsumer.as_asgi()),  # its token is checked as it goes online (dispatch.transport.socket_auth)
        path("ws/passenger/", AllowedHostsOriginValidator(PassengerConsumer.as_asgi())),
        path("ws/operator/", AllowedHostsOriginValidator(AuthMiddlewareStack(OperatorConsumer.as_asgi()))),
    ]
)
