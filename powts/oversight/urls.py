from django.urls import path

from powts.oversight import views

app_name = "oversight"
urlpatterns = [
    path("", views.state_view, name="state"),
    path("counties/<int:pk>/<str:action>/", views.county_act, name="county-act"),
    path("holds/<int:pk>/lift/", views.hold_lift, name="hold-lift"),
    path("exemptions/<int:pk>/hearing/", views.exemption_hearing, name="exemption-hearing"),
    path("exemptions/<int:pk>/revoke/", views.exemption_revoke, name="exemption-revoke"),
    path("audits/", views.audit_list, name="audits"),
    path("audits/draw/", views.audit_draw, name="audit-draw"),
    path("audits/<int:pk>/", views.audit_detail, name="audit"),
    path("audits/<int:pk>/<str:action>/", views.audit_act, name="audit-act"),
    path("samples/<int:pk>/verify/", views.sample_verify, name="sample-verify"),
    path("categories/", views.categories, name="categories"),
    path("categories/approve/", views.category_approve, name="category-approve"),
    path("flags/", views.flag_list, name="flags"),
    path("flags/new/", views.flag_new, name="flag-new"),
    path("flags/application/", views.flag_application, name="flag-application"),
    path("flags/<int:pk>/<str:action>/", views.flag_act, name="flag-act"),
    path("referrals/new/", views.referral_new, name="referral-new"),
    path("referrals/<int:pk>/", views.referral_detail, name="referral"),
    path("referrals/<int:pk>/outcome/", views.referral_outcome, name="referral-outcome"),
    path("referrals/<int:pk>/evidence.<str:fmt>", views.referral_packet, name="referral-packet"),
    path("licenses/<int:pk>/", views.license_page, name="license"),
    path("application-inspections/", views.application_samples, name="application-samples"),
    path("application-inspections/<int:pk>/", views.application_sample, name="application-sample"),
    path("application-inspections/items/<int:pk>/", views.application_inspect, name="application-inspect"),
    path("special-charges/", views.assessment_list, name="assessments"),
    path("inspections/<int:pk>/reassign/", views.inspection_reassign, name="inspection-reassign"),
]
