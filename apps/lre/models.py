"""Long-running work (LRE): jobs, their phases and batches.

A job continues a turn's plan from one step on, when that step's input is
too large for a turn. Each remaining step of the plan is a *phase*; a phase
runs its step over *batches* of the previous phase's committed items (or,
for a step that needs the whole collection, once over all of them). The
total of a later phase is unknown until the phase before it has finished.

Committed results stay committed: an error, a pause or an attention state
never removes them. Nothing here holds a secret; results are the same
redacted JSON the runtime records for steps.
"""

from __future__ import annotations

from django.db import models

from apps.core.fields import StorableCharField, StorableJSONField
from apps.core.tenancy import OwnedModel


class LreJob(OwnedModel):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        PAUSED = "paused"
        NEEDS_ATTENTION = "needs_attention"
        COMPLETED = "completed"
        PARTIAL = "partial"  # finished, with items that failed permanently
        FAILED = "failed"
        CANCELLED = "cancelled"

    title = StorableCharField(max_length=200)
    # The turn that handed this work off; its plan and recorded results are the job's input.
    turn = models.ForeignKey("runtime.Turn", on_delete=models.CASCADE, related_name="lre_jobs")
    plan = StorableJSONField()
    first_step = models.PositiveIntegerField()  # the plan step the first phase runs (1-based)
    # Signatures of the executors the job runs, as admitted when it was created:
    # a changed catalog stops the job for review instead of running new code.
    executor_signatures = StorableJSONField(default=dict)
    batch_size = models.PositiveIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    attention_reason = StorableCharField(max_length=300, blank=True)
    # Bumped by every decision that restarts work (resume, retry): the console
    # derives the start time from attempts of the current revision only.
    revision = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    turn_id: int

    objects: models.Manager[LreJob] = models.Manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "status"])]

    def __str__(self) -> str:
        return f"LRE job {self.pk} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in {self.Status.COMPLETED, self.Status.PARTIAL, self.Status.FAILED, self.Status.CANCELLED}


class LrePhase(OwnedModel):
    """One plan step of a job, run over batches of the previous phase's output."""

    class Status(models.TextChoices):
        WAITING = "waiting"  # its input is not known yet
        RUNNING = "running"
        DONE = "done"

    job = models.ForeignKey(LreJob, on_delete=models.CASCADE, related_name="phases")
    position = models.PositiveIntegerField()  # 1-based within the job
    step = models.PositiveIntegerField()  # the plan step this phase runs
    tool = models.CharField(max_length=64)
    per_item = models.BooleanField()  # batches over items, or one batch over the whole collection
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    total_batches = models.PositiveIntegerField(null=True, blank=True)  # unknown until materialised
    job_id: int

    objects: models.Manager[LrePhase] = models.Manager()

    class Meta:
        ordering = ["job_id", "position"]
        constraints = [models.UniqueConstraint(fields=["job", "position"], name="unique_lre_phase_position")]

    def __str__(self) -> str:
        return f"Phase {self.position} {self.tool} ({self.status})"


class LreBatch(OwnedModel):
    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        COMMITTED = "committed"  # its result is saved
        RETRY_WAIT = "retry_wait"  # a recoverable error; one more attempt is admitted
        NEEDS_REVIEW = "needs_review"  # attempts exhausted, or an unknown cause
        FAILED = "failed"  # a permanent error or a contract violation
        SKIPPED = "skipped"  # the user chose to skip it

    job = models.ForeignKey(LreJob, on_delete=models.CASCADE, related_name="batches")
    phase = models.ForeignKey(LrePhase, on_delete=models.CASCADE, related_name="batches")
    index = models.PositiveIntegerField()  # 1-based within the phase
    items = StorableJSONField(default=list)  # the input items of this batch
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    attempts_allowed = models.PositiveIntegerField()
    error_class = models.CharField(max_length=16, blank=True)
    error_code = models.CharField(max_length=64, blank=True)
    # The committed result: items produced (for the next phase), outcome and notices.
    outcome = models.CharField(max_length=16, blank=True)
    result_items = StorableJSONField(default=list, blank=True)
    result = StorableJSONField(default=dict, blank=True)
    # The turn that recorded this batch's step (its trace and events).
    turn = models.ForeignKey("runtime.Turn", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    revision = models.PositiveIntegerField(default=1)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The lease of a running batch (apps/lre/leases.py): who holds it (one token per claim), until when,
    # and when its worker last renewed it. An expired lease is reclaimed by the reaper.
    lease_holder = models.CharField(max_length=120, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    job_id: int
    phase_id: int

    objects: models.Manager[LreBatch] = models.Manager()

    class Meta:
        ordering = ["job_id", "phase_id", "index"]
        constraints = [models.UniqueConstraint(fields=["phase", "index"], name="unique_lre_batch_index")]
        indexes = [models.Index(fields=["job", "status"]), models.Index(fields=["status", "lease_expires_at"])]

    def __str__(self) -> str:
        return f"Batch {self.index} ({self.status})"


class LreEvent(OwnedModel):
    """One entry of a job's history: a decision on it or on one batch, by the user or by the engine.

    It says what was decided and why (``cause``), and for a batch which
    attempt it concerned. It records decisions, never an item's domain
    outcome: a document that held no invoice is a committed result, not an
    event.
    """

    class Kind(models.TextChoices):
        RECLAIMED = "reclaimed"  # the batch's worker stopped; its lease expired and the engine took it back
        LATE_RESULT = "late_result"  # a result that arrived after its lease was reclaimed: not committed
        RETRY_SCHEDULED = "retry_scheduled"  # a recoverable error with attempts left: one more attempt
        NEEDS_REVIEW = "needs_review"  # the batch waits for the user's decision
        RETRY_GRANTED = "retry_granted"  # the user granted one more attempt
        SKIPPED = "skipped"  # the user left the batch out
        NEEDS_ATTENTION = "needs_attention"  # the job stopped starting new batches
        PAUSED = "paused"
        RESUMED = "resumed"
        CANCELLED = "cancelled"

    job = models.ForeignKey(LreJob, on_delete=models.CASCADE, related_name="events")
    batch = models.ForeignKey(LreBatch, on_delete=models.CASCADE, null=True, blank=True, related_name="events")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    attempt = models.PositiveIntegerField(null=True, blank=True)  # the batch's attempt it concerns
    cause = StorableCharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    job_id: int
    batch_id: int | None

    objects: models.Manager[LreEvent] = models.Manager()

    class Meta:
        ordering = ["job_id", "created_at", "id"]
        indexes = [models.Index(fields=["job", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} on job {self.job_id}"
