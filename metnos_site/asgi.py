"""ASGI entry point: HTTP through Django, WebSocket through Channels.

The WebSocket stack checks the Origin (scheme, host and port) against the
portal's trusted origins and authenticates the session before any consumer
sees the connection.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "metnos_site.settings")
# Populate the app registry before importing consumers and their models.
django_asgi_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from apps.core.embedded_worker import start_embedded_worker_if_configured  # noqa: E402
from apps.core.socket_origin import PortalOriginValidator  # noqa: E402
from metnos_site.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_application,
        "websocket": PortalOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# In the embedded mode the serving process also runs the Celery worker.
start_embedded_worker_if_configured()
