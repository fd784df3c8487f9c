"""Registration of the executors that ship with Metnos, and their request forms and frames."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from apps.runtime.executor import register_combination_rule, register_executor
from apps.runtime.executors import files as file_executors
from apps.runtime.executors import records as record_executors
from apps.runtime.executors.file_changes import DeleteFilesExecutor
from apps.runtime.executors.request_forms import REQUEST_FORMS
from apps.runtime.executors.request_frames import REQUEST_FRAMES
from apps.runtime.executors.undo import UndoLastTurn
from apps.runtime.extraction.model import configured_model_extractor
from apps.runtime.plans.api import register_producer_rule


def register_builtin_executors() -> None:
    for executor in (
        *file_executors.builtin_executors(),
        # The extraction tier, or None: extraction is then deterministic only.
        *record_executors.builtin_executors(model_extractor=configured_model_extractor()),
        DeleteFilesExecutor(),
        UndoLastTurn(),
    ):
        forms = REQUEST_FORMS.get(executor.manifest.name, ())
        frames = REQUEST_FRAMES.get(executor.manifest.name, ())
        if forms or frames:
            executor.manifest = dataclasses.replace(
                executor.manifest,
                request_forms=(*executor.manifest.request_forms, *forms),
                request_frames=(*executor.manifest.request_frames, *frames),
            )
        register_executor(executor)

    # An extractor needs document text: a reader goes between a finder and it.
    register_producer_rule("extract_entries", "text", "read_files")
    register_combination_rule("read_files", _read_files_inputs)
    register_combination_rule("delete_files", _delete_files_inputs)


def _read_files_inputs(args: Mapping[str, Any]) -> str | None:
    given = [name for name in ("from_step", "paths") if args.get(name) not in (None, [], ())]
    if len(given) != 1:
        return "read_files needs exactly one of from_step or paths"
    return None


def _delete_files_inputs(args: Mapping[str, Any]) -> str | None:
    given = [name for name in ("from_step", "paths") if args.get(name) not in (None, [], ())]
    if len(given) != 1:
        return "delete_files needs exactly one of from_step or paths"
    return None
