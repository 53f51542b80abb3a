from django.apps import AppConfig


class JurisdictionsConfig(AppConfig):
    name = "powts.jurisdictions"
    label = "jurisdictions"
