from django.urls import path

from apps.runtime import portal_views

app_name = "runtime"

urlpatterns = [
    path("conversations/new", portal_views.conversation_new, name="conversation-new"),
    path("conversations/<int:conversation_id>/", portal_views.conversation_detail, name="conversation"),
    path("system/capabilities/", portal_views.system_capabilities, name="capabilities"),
    path("system/models/", portal_views.system_models, name="models"),
]
