from django.urls import path

from apps.lre import portal_views

app_name = "lre"

urlpatterns = [
    path("", portal_views.job_console, name="jobs"),
    path("<int:job_id>/", portal_views.job_detail, name="job"),
    path("<int:job_id>/<slug:decision>", portal_views.job_decide, name="job-decide"),
    path("<int:job_id>/batches/<int:batch_id>/<slug:decision>", portal_views.batch_decide, name="batch-decide"),
]
