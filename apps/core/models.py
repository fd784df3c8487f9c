"""The platform's own rows: the outbox of background work (see :mod:`apps.core.outbox`)."""

from __future__ import annotations

from django.db import models

from apps.core.fields import StorableJSONField


class OutboxMessage(models.Model):
    """A task to send to the broker, written in the same transaction as the work it starts.

    ``attempts`` counts the sends tried (the first at commit), ``last_error``
    says why the last one was refused, ``sent_at`` when the relay last had it
    taken; ``started_at`` that a worker began it. A message sent but never
    started (the broker lost it, a worker died holding it) is sent again.
    The arguments are ids, never users' content.
    """

    task_name = models.CharField(max_length=200)
    args = StorableJSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True)  # the error's kind, never its text

    objects: models.Manager[OutboxMessage] = models.Manager()

    class Meta:
        indexes = [models.Index(fields=["started_at", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"Outbox {self.pk} {self.task_name}"
