from django.db import models


class Channel(models.TextChoices):
    WEB = "web", "Web"
    API = "api", "API"
    IMPORT = "import", "Import"
    CLI = "cli", "Command line"
    JOB = "job", "Background job"
    SYSTEM = "system", "System"
