from django.apps import AppConfig


class AttachmentsConfig(AppConfig):
    name = "powts.attachments"
    label = "attachments"
    verbose_name = "Documents and photos"

    def ready(self):
        from django.conf import settings
        from PIL import Image

        # Pillow refuses a picture over twice this many pixels when it opens it (a decompression bomb), and warns
        # over it; powts.attachments.content refuses both, and any picture over the setting itself.
        Image.MAX_IMAGE_PIXELS = settings.POWTS_IMAGE_MAX_PIXELS
        from powts.attachments import panels
        from powts.core import registry

        registry.register("system_panel", "documents and photos", panels.system_context,
                          template="attachments/_system_attachments.html", order=30)
