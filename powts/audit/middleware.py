from powts.audit.choices import Channel
from powts.audit.context import acting


class AuditContextMiddleware:
    """Marks every web and API request with its user and channel for the audit trail."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        channel = Channel.API if request.path.startswith("/api/") else Channel.WEB
        user = request.user if getattr(request, "user", None) and request.user.is_authenticated else None
        with acting(channel=channel, actor=user, actor_label=user.username if user else "anonymous"):
            return self.get_response(request)
