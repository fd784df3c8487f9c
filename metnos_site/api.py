"""The project's single REST router; each app registers its viewsets here."""

from rest_framework.routers import DefaultRouter

from apps.accounts.api import DeviceViewSet, MeView
from apps.documents.api import DownloadViewSet
from apps.runtime.api import ConversationViewSet
from apps.runtime.turn_api import ConsentViewSet, FileContentView, TurnViewSet


class MetnosRouter(DefaultRouter):
    # The browsable root view would be an unauthenticated listing of routes.
    include_root_view = False


api_router = MetnosRouter()
api_router.register("devices", DeviceViewSet, basename="device")
api_router.register("conversations", ConversationViewSet, basename="conversation")
api_router.register("downloads", DownloadViewSet, basename="download")
api_router.register("turns", TurnViewSet, basename="turn")
api_router.register("consents", ConsentViewSet, basename="consent")
api_router.register("files", FileContentView, basename="file")
api_router.register("me", MeView, basename="me")
