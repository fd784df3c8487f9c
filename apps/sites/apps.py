from django.apps import AppConfig


class SitesConfig(AppConfig):
    name = "apps.sites"
    label = "metnos_sites"  # "sites" is taken by django.contrib.sites
    verbose_name = "Websites"
