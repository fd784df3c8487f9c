"""The project's single REST router; each app registers its viewsets here."""

from rest_framework.routers import DefaultRouter

from apps.accounts.api import DeviceViewSet, MeView
from apps.documents.api import DownloadViewSet
from apps.lre.api import LreJobViewSet
from apps.runtime.api import ConversationViewSet
from apps.runtime.device_api import DeviceStepViewSet
from apps.runtime.input_api import InputRequestViewSet
from apps.runtime.turn_api import ConsentViewSet, FileContentView, PlanViewSet, TurnViewSet
from apps.sites.api import BrowserJobViewSet, WebSessionViewSet
from apps.vault.api import CredentialViewSet


class MetnosRouter(DefaultRouter):
    # The browsable root view would be an unauthenticated listing of routes.
    include_root_view = False
    # The API answers JSON only: no `.json` duplicates of the routes (their
    # custom actions took no `format` argument and answered 500). Such a URL is a 404.
    include_format_suffixes = False


api_router = MetnosRouter()
api_router.register("devices", DeviceViewSet, basename="device")
api_router.register("conversations", ConversationViewSet, basename="conversation")
api_router.register("downloads", DownloadViewSet, basename="download")
api_router.register("turns", TurnViewSet, basename="turn")
api_router.register("plans", PlanViewSet, basename="plan")
api_router.register("consents", ConsentViewSet, basename="consent")
api_router.register("files", FileContentView, basename="file")
api_router.register("me", MeView, basename="me")
api_router.register("web-sessions", WebSessionViewSet, basename="web-session")
api_router.register("browser-jobs", BrowserJobViewSet, basename="browser-job")
api_router.register("credentials", CredentialViewSet, basename="credential")
api_router.register("lre-jobs", LreJobViewSet, basename="lre-job")
api_router.register("input-requests", InputRequestViewSet, basename="input-request")
api_router.register("device-steps", DeviceStepViewSet, basename="device-step")
