from django.urls import path

from powts.maintenance import holding_views, notice_views, views

app_name = "maintenance"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("report/", views.report, name="report"),
    path("report/find-system/", views.system_lookup, name="system-lookup"),
    path("reports/", views.report_list, name="reports"),
    path("upload/", views.upload, name="upload"),
    path("holding-report/", holding_views.holding_report, name="holding-report"),
    path("holding-report/letters/", notice_views.holding_letters, name="holding-letters"),
    path("holding-report/letters/<str:due_on>.pdf", notice_views.holding_letters_pdf, name="holding-letters-pdf"),
    path("mine/", views.mine, name="mine"),
    path("reports/<int:pk>/reviewed/", views.failure_reviewed, name="failure-reviewed"),
    path("reports/<int:pk>/match/", views.match, name="match"),
    path("notices/", notice_views.notices, name="notices"),
    path("notices/send/", notice_views.send, name="notices-send"),
    path("notices/preview/<int:system_pk>.pdf", notice_views.letter_preview, name="notice-preview"),
    path("notices/batches/<int:pk>/", notice_views.batch, name="notice-batch"),
    path("notices/batches/<int:pk>/letters.pdf", notice_views.batch_pdf, name="notice-batch-pdf"),
    path("notices/<int:pk>/letter.pdf", notice_views.notice_letter, name="notice-letter"),
]
