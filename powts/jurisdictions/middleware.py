"""Each request's first read of a county profile asks whether a county's settings changed since this process
read them (powts.kernel.profiles.check_soon): another process's change shows on the next request."""
from powts.kernel.profiles import check_done, check_soon


class ProfileStampMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = check_soon()
        try:
            return self.get_response(request)
        finally:
            check_done(token)
