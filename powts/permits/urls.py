from django.urls import path

from powts.permits import views, views_complaints

app_name = "permits"
urlpatterns = [
    path("", views.permit_list, name="list"),
    path("new/", views.permit_new, name="new"),
    path("new/find-parcel/", views.parcel_lookup, name="parcel-lookup"),
    path("new/check-plan/", views.plan_check, name="plan-check"),
    path("inspections.ics", views.inspections_ics, name="ics"),
    path("calendar/<str:secret>.ics", views.calendar_feed, name="calendar-feed"),
    path("complaints/new/", views.complaint_new, name="complaint-new"),
    path("complaints/<int:pk>/link/", views_complaints.complaint_link_view, name="complaint-link"),
    path("site/", views.site_and_enforcement, name="site"),
    path("site/<str:what>/", views.site_post, name="site-post"),
    path("variances/", views.variances, name="variances"),
    path("variances/<str:what>/", views.variance_post, name="variance-post"),
    path("<int:pk>/", views.permit_detail, name="detail"),
    path("<int:pk>/card.pdf", views.permit_card, name="card"),
    path("<int:pk>/<str:action>/", views.permit_post, name="post"),
]
