"""Platform foundation shared by every app: tenancy, API base, events, health."""
