"""The portal's frame: the home page and System > Services, built from what the apps register.

The platform knows none of the apps above it. An app shows something on one
of these pages by registering a panel from its ``panels`` module (imported in
its ``AppConfig.ready()``): a template, and a function of the request that
gives the template its context, always scoped to ``request.user``. A page
renders its panels by their ``order``. Pages are server-rendered; scripts come
only from static files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from apps.core.health import check_broker, check_channel_layer, check_database, check_worker

Page = Literal["home", "services"]
PanelContext = Callable[[HttpRequest], Mapping[str, object]]


@dataclass(frozen=True)
class Panel:
    name: str
    template: str
    context: PanelContext
    order: int


PANELS: dict[Page, dict[str, Panel]] = {"home": {}, "services": {}}


def register_panel(page: Page, name: str, *, template: str, order: int) -> Callable[[PanelContext], PanelContext]:
    """Show ``template`` on ``page``, with the context the decorated function gives for a request."""

    def decorator(context: PanelContext) -> PanelContext:
        if name in PANELS[page]:
            raise ImproperlyConfigured(f"{page} panel {name!r} registered twice")
        PANELS[page][name] = Panel(name, template, context, order)
        return context

    return decorator


def _panels(page: Page, request: HttpRequest, **shared: object) -> list[SafeString]:
    """The page's panels rendered in order; each sees the page's ``shared`` context and its own."""
    return [
        render_to_string(panel.template, {**shared, **panel.context(request)}, request=request)
        for panel in sorted(PANELS[page].values(), key=lambda panel: panel.order)
    ]


@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "portal/home.html", {"panels": _panels("home", request)})


@login_required
def system_services(request: HttpRequest) -> HttpResponse:
    """System > Services: each component's state; technical details for operators only."""
    show_details = bool(getattr(request.user, "is_staff", False))
    components = {
        "Database": check_database(),
        "Live updates": check_channel_layer(),
        "Task broker": check_broker(),
        "Workers": check_worker(),
    }
    context = {
        "components": components,
        "panels": _panels("services", request, show_details=show_details),
        "show_details": show_details,
    }
    return render(request, "core/services.html", context)
