"""The tenancy sweep: every owned model, every REST route, the admin.

It enumerates what is registered *now*, so a model or route added later is
covered without editing this file — and fails naming whatever leaks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import models
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.views import APIView

from apps.core.api import OwnedModelViewSet
from apps.core.tenancy import owned_models
from tests.conftest import Cast, api_client_for
from tests.factories import build_owned_row

# Owned models deliberately without a REST route, each with its reason.
NOT_EXPOSED_OVER_REST: dict[str, str] = {
    "runtime.StepRecord": "served inside /api/v1/turns/{id}/ for the turn's owner",
    "runtime.TraceEvent": "served by /api/v1/turns/{id}/trace/ for the turn's owner",
    "runtime.PlanCache": "internal plan cache; never shown or edited over REST",
    "lre.LrePhase": "served inside /api/v1/lre-jobs/{id}/ (progress) for the job's owner",
    "lre.LreBatch": "served by /api/v1/lre-jobs/{id}/review/ and its batch decisions for the job's owner",
    "lre.LreEvent": "served by /api/v1/lre-jobs/{id}/history/ for the job's owner",
    "metnos_sites.HandoffPanel": "served by the portal's /web/handoff/{id}/ page and its endpoints for the owner",
    "metnos_sites.SignedInPage": "internal: where a turn's sign-in landed, read by the same turn's collection",
}

VALID_TENANCY = {"owned", "self"}


@dataclass(frozen=True)
class ApiRoute:
    path: str
    view_class: type[APIView]
    actions: dict[str, str]
    is_detail: bool

    @property
    def name(self) -> str:
        return f"{self.view_class.__name__} at /{self.path}"


def _walk(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def api_routes() -> list[ApiRoute]:
    routes = []
    for path, callback in _walk(get_resolver().url_patterns):
        view_class = getattr(callback, "cls", None)
        if view_class is None or not issubclass(view_class, APIView):
            continue
        if "(?P<format>" in path or "\\.(?P<format>" in path:
            continue  # format-suffix duplicates of the same routes
        actions = dict(getattr(callback, "actions", None) or {})
        routes.append(ApiRoute(path, view_class, actions, is_detail="(?P<pk>" in path or "<pk>" in path))
    return routes


def _concrete_path(route: ApiRoute, pk: Any) -> str:
    path = route.path.replace("(?P<pk>[^/.]+)", str(pk)).replace("<pk>", str(pk))
    # Other captured parts of a nested route (a batch of a job) get a plausible id too.
    path = re.sub(r"\(\?P<\w+>[^)]*\)", "1", path)
    return "/" + path.replace("^", "").replace("$", "")


def _owned_model_of(route: ApiRoute, owner: Any) -> type[models.Model]:
    view_class = route.view_class
    assert issubclass(view_class, OwnedModelViewSet)
    return view_class.list_selector(owner=owner).model


def _snapshot(row: models.Model) -> dict[str, Any]:
    fresh = type(row)._default_manager.get(pk=row.pk)
    return {field.attname: getattr(fresh, field.attname) for field in fresh._meta.concrete_fields}


def test_api_has_routes_to_sweep() -> None:
    # Guards the sweep itself: an empty route list would make it vacuous.
    assert any(issubclass(route.view_class, OwnedModelViewSet) for route in api_routes())


def test_every_api_view_declares_its_tenancy() -> None:
    undeclared = [
        route.name for route in api_routes() if getattr(route.view_class, "tenancy", None) not in VALID_TENANCY
    ]
    assert not undeclared, f"API views without a tenancy declaration: {undeclared}"


def test_every_owned_api_view_uses_the_owned_base() -> None:
    wrong = [
        route.name
        for route in api_routes()
        if getattr(route.view_class, "tenancy", None) == "owned" and not issubclass(route.view_class, OwnedModelViewSet)
    ]
    assert not wrong, f"owned API views not derived from OwnedModelViewSet: {wrong}"


@pytest.mark.django_db
def test_every_owned_model_is_exposed_or_explained(cast: Cast) -> None:
    exposed = {
        _owned_model_of(route, cast.owner)._meta.label
        for route in api_routes()
        if issubclass(route.view_class, OwnedModelViewSet)
    }
    unexplained = [
        model._meta.label
        for model in owned_models()
        if model._meta.label not in exposed and model._meta.label not in NOT_EXPOSED_OVER_REST
    ]
    assert not unexplained, f"owned models neither served over REST nor listed with a reason: {unexplained}"


@pytest.mark.django_db
def test_every_owned_model_row_can_be_built_and_is_scoped(cast: Cast) -> None:
    from apps.core.tenancy import owned_rows

    for model in owned_models():
        row = build_owned_row(model, cast.owner)
        assert owned_rows(model, owner=cast.owner).filter(pk=row.pk).exists(), model._meta.label
        assert not owned_rows(model, owner=cast.second_user).filter(pk=row.pk).exists(), (
            f"{model._meta.label} row visible to another owner"
        )


@pytest.mark.django_db
def test_outsider_is_denied_on_every_route(cast: Cast, outsider: Any) -> None:
    leaks = []
    for route in api_routes():
        pk = 1
        if issubclass(route.view_class, OwnedModelViewSet):
            pk = build_owned_row(_owned_model_of(route, cast.owner), cast.owner).pk
        for method in ("get", "post", "put", "patch", "delete"):
            if method not in route.actions:
                continue
            response = getattr(outsider, method)(_concrete_path(route, pk), {}, format="json")
            if response.status_code not in (401, 403):
                leaks.append(f"{method.upper()} {route.name} answered {response.status_code} to an outsider")
    assert not leaks, leaks


@pytest.mark.django_db
def test_second_user_cannot_list_read_or_change_owner_rows(cast: Cast) -> None:
    owner_client = api_client_for(cast.owner)
    intruder = api_client_for(cast.second_user)
    leaks: list[str] = []
    swept_detail_routes = 0
    for route in api_routes():
        if not issubclass(route.view_class, OwnedModelViewSet):
            continue
        model = _owned_model_of(route, cast.owner)
        row = build_owned_row(model, cast.owner)
        path = _concrete_path(route, row.pk)
        if not route.is_detail:
            if "get" in route.actions:
                listed = intruder.get(path).json()
                items = listed.get("results", listed) if isinstance(listed, dict) else listed
                if any(item.get("id") == row.pk for item in items):
                    leaks.append(f"{route.name} lists {model._meta.label} {row.pk} of another owner")
                owner_items = owner_client.get(path).json()
                owner_items = owner_items.get("results", owner_items)
                assert any(item.get("id") == row.pk for item in owner_items), f"{route.name} hides the owner's row"
            continue
        swept_detail_routes += 1
        before = _snapshot(row)
        owner_view = owner_client.get(path).json() if "get" in route.actions else {}
        for method in ("get", "put", "patch", "delete"):
            if method not in route.actions:
                continue
            body = None if method in ("get", "delete") else owner_view
            response = getattr(intruder, method)(path, body, format="json")
            if response.status_code != 404:
                leaks.append(f"{method.upper()} {route.name} answered {response.status_code} for another owner's row")
        if not model._default_manager.filter(pk=row.pk).exists():
            leaks.append(f"{route.name}: another owner deleted {model._meta.label} {row.pk}")
        elif _snapshot(row) != before:
            leaks.append(f"{route.name}: another owner changed {model._meta.label} {row.pk}")
    assert swept_detail_routes > 0
    assert not leaks, leaks


@pytest.mark.django_db
def test_missing_and_foreign_rows_answer_the_same_404(cast: Cast) -> None:
    intruder = api_client_for(cast.second_user)
    for route in api_routes():
        if not (issubclass(route.view_class, OwnedModelViewSet) and route.is_detail and "get" in route.actions):
            continue
        row = build_owned_row(_owned_model_of(route, cast.owner), cast.owner)
        foreign = intruder.get(_concrete_path(route, row.pk))
        missing = intruder.get(_concrete_path(route, row.pk + 10_000))
        assert foreign.status_code == missing.status_code == 404
        assert foreign.json() == missing.json(), route.name


@pytest.mark.django_db
def test_operator_sees_every_admin_model_without_secrets(cast: Cast, client: Any) -> None:
    from django.conf import settings
    from django.contrib import admin

    rows = {model._meta.label: build_owned_row(model, cast.owner) for model in owned_models()}
    client.force_login(cast.operator)
    for model in admin.site._registry:
        opts = model._meta
        changelist = client.get(f"/{settings.ADMIN_PATH}{opts.app_label}/{opts.model_name}/")
        assert changelist.status_code == 200, f"operator cannot list {opts.label}"
        row = rows.get(opts.label)
        if row is not None:
            change = client.get(f"/{settings.ADMIN_PATH}{opts.app_label}/{opts.model_name}/{row.pk}/change/")
            assert change.status_code == 200, f"operator cannot view {opts.label}"
            assert b"Save" not in change.content or cast.operator.is_superuser, f"operator may change {opts.label}"


def test_every_metnos_model_is_registered_in_the_admin() -> None:
    from django.apps import apps
    from django.contrib import admin

    missing = [
        model._meta.label
        for model in apps.get_models()
        if model.__module__.startswith("apps.") and model not in admin.site._registry
    ]
    assert not missing, f"models operators cannot see in the admin: {missing}"
