"""Conversations: the owner-scoped context every turn belongs to."""

from __future__ import annotations

from django.db import models

from apps.core.tenancy import OwnedModel


class Conversation(OwnedModel):
    title = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects: models.Manager[Conversation] = models.Manager()

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return self.title or f"Conversation {self.pk}"
