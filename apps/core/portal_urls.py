from django.urls import path

from apps.core import portal

app_name = "portal"

urlpatterns = [
    path("", portal.home, name="home"),
    path("system/services/", portal.system_services, name="services"),
]
