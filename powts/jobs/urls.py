from django.urls import path

from powts.jobs import views

app_name = "jobs"

urlpatterns = [
    path("<int:pk>/", views.job_detail, name="job"),
    path("<int:pk>/retry/", views.job_retry, name="job-retry"),
    path("<int:pk>/download/", views.job_download, name="job-download"),
]
