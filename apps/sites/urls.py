from django.urls import path

from apps.sites import portal_views
from apps.sites.handoff import views as handoff_views

app_name = "sites"

urlpatterns = [
    path("", portal_views.web_sessions, name="sessions"),
    path("close/", portal_views.web_sessions_close_view, name="close"),
    path("handoff/<int:panel_id>/", handoff_views.handoff_page, name="handoff"),
    path("handoff/<int:panel_id>/status/", handoff_views.handoff_status, name="handoff-status"),
    path("handoff/<int:panel_id>/image.png", handoff_views.handoff_image_view, name="handoff-image"),
    path("handoff/<int:panel_id>/command/", handoff_views.handoff_command, name="handoff-command"),
    path("handoff/<int:panel_id>/resume/", handoff_views.handoff_resume, name="handoff-resume"),
    path("handoff/<int:panel_id>/cancel/", handoff_views.handoff_cancel, name="handoff-cancel"),
]
