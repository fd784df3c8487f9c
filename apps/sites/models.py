"""Browser session leases: who holds one of the eight browsers, and who waits.

A row exists while a session request waits or runs, and goes when it ends.
The cap holds across every worker process because the slot is a database
row with a unique slot number; a lease expires unless its session renews it,
so a worker that dies frees its slot by itself.
"""

from __future__ import annotations

import uuid

from django.db import models

from apps.core.fields import StorableCharField, StorableJSONField
from apps.core.tenancy import OwnedModel


class BrowserSessionLease(OwnedModel):
    """One session request: waiting (``slot`` empty) or running on a slot.

    ``holder`` names the process (``host:pid``) for operators; nothing about
    the websites visited is kept here.
    """

    token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    slot = models.PositiveSmallIntegerField(null=True, blank=True, unique=True)
    holder = models.CharField(max_length=200)
    requested_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(db_index=True)
    close_requested = models.BooleanField(default=False)

    objects: models.Manager[BrowserSessionLease] = models.Manager()

    class Meta:
        ordering = ["requested_at", "id"]

    def __str__(self) -> str:
        return f"Browser session {self.pk}"

    @property
    def state(self) -> str:
        return "running" if self.slot is not None else "waiting"


class BrowserJob(OwnedModel):
    """Browser work handed to the ``browser`` queue, and what came of it.

    ``kind`` names a registered job (:mod:`apps.sites.browser.jobs`); ``params`` and
    ``result`` are the owner's data and are never shown to operators. ``params``
    never holds a secret (a browser step stores ids, the address and the step's
    identity; its worker resolves values itself), and ``result`` is redacted by
    the worker before it is written. ``outcome`` and ``reason`` come from closed sets.
    """

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        FINISHED = "finished"

    kind = models.CharField(max_length=64)
    params = StorableJSONField(default=dict, blank=True)
    websites = StorableJSONField(default=list, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    outcome = models.CharField(max_length=32, blank=True)
    reason = models.CharField(max_length=32, blank=True)
    result = StorableJSONField(default=dict, blank=True)
    refusals = StorableJSONField(default=dict, blank=True)
    requested_at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The browser worker that claimed the job (``host:pid``, for operators), and its lease on the job:
    # renewed while the job runs; a step that finds it too old ends the job ``interrupted``.
    holder = models.CharField(max_length=200, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # The step waiting for the job was cancelled: the worker stops waiting for the user.
    cancel_requested = models.BooleanField(default=False)

    objects: models.Manager[BrowserJob] = models.Manager()

    class Meta:
        ordering = ["-requested_at", "-id"]

    def __str__(self) -> str:
        return f"Browser job {self.pk}"


class HandoffPanel(OwnedModel):
    """A person's turn at a sign-in the website will not let Metnos finish alone (a humanity check).

    The browser session stays open in the sign-in's browser job while the panel is
    open; the portal shows its page with every editable field masked and
    forwards clicks and scrolls (never keystrokes). Only closed codes live
    here — never page data, an address or a value. ``result`` holds the
    verified sign-in's outcome, reason and landing origin, which the resumed
    turn (``resumed_turn``, linked to ``turn`` by ``resumed_from``) takes once.
    """

    class Status(models.TextChoices):
        OPEN = "open"
        RESUME_REQUESTED = "resume_requested"
        VERIFYING = "verifying"
        RESUMED = "resumed"
        CANCELLED = "cancelled"
        EXPIRED = "expired"
        FAILED = "failed"

    turn = models.ForeignKey("runtime.Turn", on_delete=models.CASCADE, related_name="+")
    conversation = models.ForeignKey("runtime.Conversation", on_delete=models.CASCADE, related_name="+")
    step_index = models.PositiveIntegerField()
    status = models.CharField(max_length=24, choices=Status.choices, default=Status.OPEN)
    # Why it opened (humanity_check) or how it closed (handoff_cancelled, session_ended, the sign-in's reason).
    reason = models.CharField(max_length=48, blank=True)
    # What the last Resume found when it did not clear the check: still_open or unobservable.
    last_check = models.CharField(max_length=24, blank=True)
    credentials_submitted = models.BooleanField(default=False)
    result = StorableJSONField(default=dict, blank=True)
    resumed_turn = models.ForeignKey("runtime.Turn", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    result_taken_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    turn_id: int
    conversation_id: int
    resumed_turn_id: int | None

    objects: models.Manager[HandoffPanel] = models.Manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Handoff panel {self.pk}"

    @property
    def is_closed(self) -> bool:
        return self.status in {self.Status.RESUMED, self.Status.CANCELLED, self.Status.EXPIRED, self.Status.FAILED}


class SignedInPage(OwnedModel):
    """Where a verified sign-in of a turn landed on a website: the page's path, never its query or fragment.

    A collection of the same turn that was asked for the website itself (its
    home page) starts there: the account area the website showed once signed
    in, where the home page often offers only "Log in" again. Internal: never
    shown in an answer, the audit, a log or the admin.
    """

    turn = models.ForeignKey("runtime.Turn", on_delete=models.CASCADE, related_name="+")
    origin = StorableCharField(max_length=300)
    path = StorableCharField(max_length=2000)
    created_at = models.DateTimeField(auto_now=True)
    turn_id: int

    objects: models.Manager[SignedInPage] = models.Manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["turn", "origin"], name="signed_in_page_per_turn_origin")]

    def __str__(self) -> str:
        return f"Signed-in page {self.pk}"
