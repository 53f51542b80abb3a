"""The token check on every API call (DEFAULT_AUTHENTICATION_CLASSES; kept apart from views, which
DRF's settings cannot import while they load).

django-rest-knox: only a digest of each token is stored, each expires (REST_KNOX TOKEN_TTL), a password
change deletes them (User.save), and they are read from the Authorization header only, never a URL.
"""
import re

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from django.utils import timezone
from knox import auth as knox_auth
from knox.signals import token_expired
from knox.settings import knox_settings
from rest_framework import exceptions


class TokenAuthentication(knox_auth.TokenAuthentication):
    """knox's check, after refusing anything not shaped like one of its keys (hex of the configured length):
    a NUL byte or non-UTF-8 text would otherwise reach the database query and answer 500."""

    def authenticate_credentials(self, token):
        length = knox_settings.AUTH_TOKEN_CHARACTER_LENGTH + len(knox_settings.TOKEN_PREFIX)
        if len(token) != length or not re.fullmatch(rb"[0-9a-f]+", token[len(knox_settings.TOKEN_PREFIX):]):
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(token)

    def _cleanup_token(self, auth_token) -> bool:
        """Only the token presented: an expired one is deleted and refused. knox also reads all the person's
        other tokens on every call (a query per API request, issue 13); api_token_create deletes the
        expired ones when it makes a new one, and an expired token is refused whenever it is shown."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "powts.accounts.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": 'Token-based authentication with required prefix "Token"'}
