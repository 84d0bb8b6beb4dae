from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

from .auth import DriverTokenAuthMiddleware
from .consumers import DriverConsumer, OperatorConsumer, PassengerConsumer

websocket_application = URLRouter(
    [
        path("ws/driver/", DriverTokenAuthMiddleware(DriverConsumer.as_asgi())),
        path("ws/passenger/", AllowedHostsOriginValidator(PassengerConsumer.as_asgi())),
        path("ws/operator/", AllowedHostsOriginValidator(AuthMiddlewareStack(OperatorConsumer.as_asgi()))),
    ]
)
