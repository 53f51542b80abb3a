from django.apps import AppConfig


class AttachmentsConfig(AppConfig):
    name = "powts.attachments"
    label = "attachments"
    verbose_name = "Documents and photos"

    def ready(self):
        from powts.attachments import panels
        from powts.core import registry

        registry.register("system_panel", "documents and photos", panels.system_context,
                          template="attachments/_system_attachments.html", order=30)
