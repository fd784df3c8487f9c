"""The runtime's rows: conversations, turns, their steps and trace, consent, plan caches.

Every row has a required owner. Users see their own turns and traces;
operators see structure, timings and outcomes, never users' content (see
admin.py). Nothing here ever holds a secret: arguments and results are stored
as redacted, truncated previews.
"""

from __future__ import annotations

from django.db import models

from apps.core.fields import StorableCharField, StorableJSONField, StorableTextField
from apps.core.tenancy import OwnedModel


class Conversation(OwnedModel):
    title = StorableCharField(max_length=200, blank=True)
    # The paired device this conversation works with (the one that asked, or
    # the one the user chose): steps that may run on a device run there. Only
    # the user sets it — never a step's output.
    device = models.ForeignKey(
        "accounts.Device", on_delete=models.SET_NULL, null=True, blank=True, related_name="conversations"
    )
    device_id: int | None
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects: models.Manager[Conversation] = models.Manager()

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        # Structural on purpose: the title quotes the user's request, and
        # __str__ appears on operators' admin pages (breadcrumbs, foreign keys).
        return f"Conversation {self.pk}"


class Turn(OwnedModel):
    """One request and everything Metnos did for it, up to the answer."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        AWAITING_CONFIRMATION = "awaiting_confirmation"
        AWAITING_INPUT = "awaiting_input"
        COMPLETED = "completed"
        PARTIAL = "partial"
        FAILED = "failed"
        HANDED_OFF = "handed_off"
        DECLINED = "declined"
        INTERRUPTED = "interrupted"

    class Path(models.TextChoices):
        NONE = "none"
        RULE = "rule"
        FAST_PATH = "fast_path"
        AUTOPATH = "autopath"
        PROPOSAL = "proposal"
        PLAN = "plan"  # an explicit plan submitted by an operator or a device

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="turns")
    request_text = StorableTextField(max_length=4000)
    status = models.CharField(max_length=24, choices=Status.choices, default=Status.QUEUED)
    path = models.CharField(max_length=16, choices=Path.choices, default=Path.NONE)
    plan = StorableJSONField(null=True, blank=True)
    plan_digest = models.CharField(max_length=64, blank=True)
    catalog_signature = models.CharField(max_length=64, blank=True)
    answer = StorableTextField(blank=True)
    resumed_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="resumptions"
    )
    cloud_requests = models.PositiveIntegerField(default=0)
    # "host:pid" of the process conducting the turn, so a turn whose process
    # died is found and ended truthfully (see turns_reconcile_interrupted).
    conducted_by = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    conversation_id: int
    resumed_from_id: int | None

    objects: models.Manager[Turn] = models.Manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "status"])]

    def __str__(self) -> str:
        return f"Turn {self.pk} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in {
            self.Status.COMPLETED,
            self.Status.PARTIAL,
            self.Status.FAILED,
            self.Status.DECLINED,
            self.Status.INTERRUPTED,
            self.Status.HANDED_OFF,
        }


class StepRecord(OwnedModel):
    """The actual outcome of one step, as recorded at the invocation boundary."""

    class Outcome(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        SUCCESS = "success"
        EMPTY = "empty"
        PARTIAL = "partial"
        FAILED = "failed"
        SKIPPED = "skipped"

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="steps")
    index = models.PositiveIntegerField()  # 1-based, as plans reference steps
    tool = models.CharField(max_length=64)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, default=Outcome.PENDING)
    error_class = models.CharField(max_length=16, blank=True)
    error_code = models.CharField(max_length=64, blank=True)
    error_message = StorableCharField(max_length=500, blank=True)
    summary = StorableCharField(max_length=500, blank=True)
    notices = StorableJSONField(default=list, blank=True)
    result_preview = StorableJSONField(default=dict, blank=True)
    # The full result, kept so a resumed turn continues from it instead of
    # repeating steps; owner-scoped content, never shown to operators.
    result = StorableJSONField(default=dict, blank=True)
    files = StorableJSONField(default=list, blank=True)
    effects = StorableJSONField(default=list, blank=True)
    # Requests the step sent to a cloud model tier (the portal marks the step with a red $).
    cloud_requests = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    turn_id: int

    objects: models.Manager[StepRecord] = models.Manager()

    class Meta:
        ordering = ["turn_id", "index"]
        constraints = [models.UniqueConstraint(fields=["turn", "index"], name="unique_step_per_turn")]

    def __str__(self) -> str:
        return f"Step {self.index} {self.tool} ({self.outcome})"


class TraceEvent(OwnedModel):
    """One entry of a turn's trace: path, controls, steps, timings, outcomes."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="trace")
    sequence = models.PositiveIntegerField()
    kind = models.CharField(max_length=48)
    # Structure only (codes, counts, names of executors, timings); content that
    # may be personal lives under "content" and is hidden from operators.
    data = StorableJSONField(default=dict, blank=True)
    content = StorableJSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    objects: models.Manager[TraceEvent] = models.Manager()

    class Meta:
        ordering = ["turn_id", "sequence"]
        constraints = [models.UniqueConstraint(fields=["turn", "sequence"], name="unique_trace_sequence")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.sequence}"


class ConsentRequest(OwnedModel):
    """A confirmation asked before an effect, bound to user, turn, exact plan and catalog."""

    class Decision(models.TextChoices):
        PENDING = "pending"
        CONFIRMED = "confirmed"
        DECLINED = "declined"
        EXPIRED = "expired"

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="consents")
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="consents")
    step_index = models.PositiveIntegerField()
    tool = models.CharField(max_length=64)
    plan_digest = models.CharField(max_length=64)
    catalog_signature = models.CharField(max_length=64)
    proposal = StorableJSONField(default=dict)  # action, purpose, destination, consequences
    decision = models.CharField(max_length=16, choices=Decision.choices, default=Decision.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    # The turn created when this confirmation resumed the plan, and the moment
    # its step was invoked: approval is consumed by the invocation.
    resumed_turn = models.ForeignKey(
        Turn, on_delete=models.SET_NULL, null=True, blank=True, related_name="approved_consents"
    )
    consumed_at = models.DateTimeField(null=True, blank=True)
    conversation_id: int
    turn_id: int

    objects: models.Manager[ConsentRequest] = models.Manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Consent {self.pk} for step {self.step_index} ({self.decision})"


class PlanCache(OwnedModel):
    """A successful plan kept for reuse: fast path (same request) or autopath (template)."""

    class Kind(models.TextChoices):
        FAST_PATH = "fast_path"
        AUTOPATH = "autopath"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    request_key = StorableCharField(max_length=500)
    plan = StorableJSONField()
    # Slots of an autopath plan: names whose values are re-bound per request.
    slots = StorableJSONField(default=list, blank=True)
    executor_signatures = StorableJSONField(default=dict)
    confirmed = models.BooleanField(default=False)
    uses = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    objects: models.Manager[PlanCache] = models.Manager()

    class Meta:
        ordering = ["-last_used_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "kind", "request_key"], name="unique_plan_cache_key"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} plan {self.pk}"


class InputRequest(OwnedModel):
    """A question a running step asked the user (a one-time code), bound to user, turn and conversation.

    The answer itself is never stored here: it travels through the cache for
    the moment between the user's reply and the waiting step, then is gone.
    """

    class Kind(models.TextChoices):
        OTP = "otp"
        TEXT = "text"
        CHOICE = "choice"

    class Status(models.TextChoices):
        PENDING = "pending"
        ANSWERED = "answered"
        DECLINED = "declined"
        EXPIRED = "expired"
        CANCELLED = "cancelled"

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="input_requests")
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="input_requests")
    step_index = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    prompt = StorableCharField(max_length=300)
    # A choice's options as shown to the user (observed labels of a website's controls, never a secret).
    choices = StorableJSONField(default=list, blank=True)
    sensitive = models.BooleanField(default=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    turn_id: int
    conversation_id: int

    objects: models.Manager[InputRequest] = models.Manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Input {self.pk} for step {self.step_index} ({self.status})"


class DeviceStep(OwnedModel):
    """A step that runs on the owner's paired device: sent with its final arguments, answered with its result."""

    class Status(models.TextChoices):
        PENDING = "pending"  # waiting for the device to take it
        CLAIMED = "claimed"  # the device took it: from here an effect may have happened
        FINISHED = "finished"
        EXPIRED = "expired"

    device = models.ForeignKey("accounts.Device", on_delete=models.CASCADE, related_name="steps")
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="device_steps")
    step_index = models.PositiveIntegerField()
    tool = models.CharField(max_length=64)
    executor_signature = models.CharField(max_length=64)
    arguments = StorableJSONField(default=dict)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    result = StorableJSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField()
    device_id: int
    turn_id: int

    objects: models.Manager[DeviceStep] = models.Manager()

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["device", "status"])]

    def __str__(self) -> str:
        return f"Device step {self.step_index} {self.tool} ({self.status})"
