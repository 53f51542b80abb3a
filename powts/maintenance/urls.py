from django.urls import path

from powts.maintenance import views

app_name = "maintenance"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("report/", views.report, name="report"),
    path("report/find-system/", views.system_lookup, name="system-lookup"),
    path("reports/", views.report_list, name="reports"),
    path("upload/", views.upload, name="upload"),
    path("mine/", views.mine, name="mine"),
    path("reports/<int:pk>/reviewed/", views.failure_reviewed, name="failure-reviewed"),
    path("reports/<int:pk>/match/", views.match, name="match"),
]
