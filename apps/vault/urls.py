from django.urls import path

from apps.vault import portal_views

app_name = "vault"

urlpatterns = [
    path("", portal_views.vault_list, name="list"),
    path("new/", portal_views.vault_new, name="new"),
    path("<int:credential_id>/rename/", portal_views.vault_rename, name="rename"),
    path("<int:credential_id>/delete/", portal_views.vault_delete, name="delete"),
]
