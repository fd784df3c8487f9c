from django.apps import AppConfig


class LreConfig(AppConfig):
    name = "apps.lre"
    label = "lre"
    verbose_name = "Long-running work"
