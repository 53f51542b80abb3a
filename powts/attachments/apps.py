from django.apps import AppConfig


class AttachmentsConfig(AppConfig):
    name = "powts.attachments"
    label = "attachments"
    verbose_name = "Documents and photos"
