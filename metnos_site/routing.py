"""WebSocket routes."""

from django.urls import path

from apps.core.consumers import UserEventsConsumer

websocket_urlpatterns = [
    path("ws/events/", UserEventsConsumer.as_asgi(), name="ws-events"),
]
