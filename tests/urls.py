"""The project's URLs plus the test-only probe endpoint."""

from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from metnos_site.urls import handler404, handler500
from metnos_site.urls import urlpatterns as project_urlpatterns
from tests.probe import views as probe_views

urlpatterns = [
    path("test-probe/enqueue/<str:gate_id>", csrf_exempt(probe_views.enqueue), name="test-probe-enqueue"),
    *project_urlpatterns,
]

__all__ = ["handler404", "handler500", "urlpatterns"]
