from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "powts.audit"
    label = "audit"
