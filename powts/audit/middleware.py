from powts.audit.choices import Channel
from powts.audit.context import acting


class AuditContextMiddleware:
    """Marks every web and API request with its user and channel for the audit trail."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        channel = Channel.API if request.path.startswith("/api/") else Channel.WEB
        with acting(channel=channel, request=request, actor_label="anonymous"):
            return self.get_response(request)
