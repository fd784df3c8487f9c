"""Statements on the hottest paths, compiled by the ORM once instead of on every call.

Compiling a queryset costs several times what SQLite or PostgreSQL take to
run it: reading a turn's row takes about 0.3 ms to compile and 0.05 ms to
answer, a conditional update 0.2 ms against 0.03 ms (``bench/bench_turns.py``).
For the few statements every turn makes, the ORM compiles the statement once
per model, database and shape, and each call runs that SQL with its own
values, prepared by the fields exactly as the ORM prepares them. The SQL is
always the ORM's — a column added to the model is read, a lookup changed is
compiled anew — and the first call of each shape checks that the values
prepared here are the ones the ORM itself would send; where they are not,
that shape keeps going through the ORM. Everywhere else, use querysets.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from django.db import connections, router, transaction
from django.db.models import Field, Model
from django.db.models.sql import UpdateQuery

M = TypeVar("M", bound=Model)

_MARK = -1


def read_by_pk(model: type[M], pk: int, *, using: str | None = None) -> M | None:
    """The row of ``model`` with primary key ``pk`` (every concrete field loaded), or None."""
    alias = using or router.db_for_read(model)
    found = list(model._default_manager.db_manager(alias).raw(_sql_by_pk(model, alias), [pk]))
    return found[0] if found else None


@functools.cache
def _sql_by_pk(model: type[Model], alias: str) -> str:
    sql, params = model._default_manager.filter(pk=_MARK).query.get_compiler(alias).as_sql()
    if list(params) != [_MARK]:  # the default manager filters more: not a plain read by key
        raise ValueError(f"{model.__name__}'s default manager adds conditions; read it with a queryset.")
    return str(sql)


def update_where(
    model: type[Model], *, where: Mapping[str, Any], values: Mapping[str, Any], using: str | None = None
) -> int:
    """``model.objects.filter(**where).update(**values)``: the number of rows it changed.

    ``where`` holds equalities on concrete fields (``pk`` included) and
    ``values`` plain values of concrete fields; neither holds None (the ORM
    writes those into the SQL, not as parameters).
    """
    if any(value is None for value in (*where.values(), *values.values())):
        raise ValueError("update_where takes no None: use a queryset.")
    alias = using or router.db_for_write(model)
    params = _update_params(model, alias, where, values)
    shape = (model, alias, tuple(sorted(where)), tuple(values))
    if shape not in _updates:
        _updates[shape] = _compile_update(model, alias, where, values, params)
    sql = _updates[shape]
    if sql is None:
        return model._default_manager.db_manager(alias).filter(**where).update(**values)
    with transaction.mark_for_rollback_on_error(alias), connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


# (model, alias, the names compared, the names assigned) → the compiled UPDATE, or None: through the ORM.
_updates: dict[tuple[Any, ...], str | None] = {}


def _update_params(model: type[Model], alias: str, where: Mapping[str, Any], values: Mapping[str, Any]) -> list[Any]:
    """The parameters in the ORM's order: the assigned values as given, then the compared ones by name."""
    connection = connections[alias]
    params = [_field(model, name).get_db_prep_save(value, connection=connection) for name, value in values.items()]
    for name in sorted(where):  # filter(**where) sorts its keywords
        field = _field(model, name)
        params.append(field.get_db_prep_value(field.get_prep_value(where[name]), connection, prepared=True))
    return params


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.pk if name == "pk" else model._meta.get_field(name)
    if not isinstance(field, Field) or not field.concrete:
        raise ValueError(f"{name} is not a column of {model.__name__}: use a queryset.")
    return field


def _compile_update(
    model: type[Model], alias: str, where: Mapping[str, Any], values: Mapping[str, Any], params: list[Any]
) -> str | None:
    """The ORM's UPDATE for this shape, kept only if its parameters are exactly ``params``."""
    query = cast(UpdateQuery, model._default_manager.db_manager(alias).filter(**where).query.chain(UpdateQuery))
    query.add_update_values(dict(values))
    sql, compiled = query.get_compiler(alias).as_sql()
    return str(sql) if list(compiled) == params else None
