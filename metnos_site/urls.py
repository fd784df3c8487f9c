"""Top-level URL configuration."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from apps.core import health_views
from metnos_site.api import api_router

admin.site.site_header = "Metnos operations"
admin.site.site_title = "Metnos operations"

urlpatterns = [
    path("healthz", health_views.healthz, name="healthz"),
    path("readyz", health_views.readyz, name="readyz"),
    path(settings.ADMIN_PATH, admin.site.urls),
    path("accounts/", include("apps.accounts.urls")),
    path("api/v1/", include((api_router.urls, "api"), namespace="api")),
    path("vault/", include("apps.vault.urls")),
    path("web/", include("apps.sites.urls")),
    path("work/", include("apps.lre.urls")),
    path("", include("apps.runtime.urls")),
    path("", include("apps.core.portal_urls")),
]

handler404 = "apps.core.errors.not_found"
handler500 = "apps.core.errors.server_error"
