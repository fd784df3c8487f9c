from django.apps import AppConfig


class ProbeConfig(AppConfig):
    name = "tests.probe"
    label = "probe"
