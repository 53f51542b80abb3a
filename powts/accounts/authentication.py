"""The token check on every API call (DEFAULT_AUTHENTICATION_CLASSES; kept apart from views, which
DRF's settings cannot import while they load).

django-rest-knox: only a digest of each token is stored, each expires (REST_KNOX TOKEN_TTL), a password
change deletes them (User.save), and they are read from the Authorization header only, never a URL.
"""
import binascii
import re
from hmac import compare_digest

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from django.utils import timezone
from knox import auth as knox_auth
from knox.crypto import hash_token
from knox.models import get_token_model
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired
from rest_framework import exceptions

from powts.core.prepared import Prepared

# The tokens with a key, with their person: read on every API call, so compiled once (powts.core.prepared).
_tokens_with_key = Prepared(lambda key: get_token_model().objects.filter(token_key=key).select_related("user"))


class TokenAuthentication(knox_auth.TokenAuthentication):
    """knox's check, after refusing anything not shaped like one of its keys (hex of the configured length):
    a NUL byte or non-UTF-8 text would otherwise reach the database query and answer 500."""

    def authenticate_credentials(self, token):
        length = knox_settings.AUTH_TOKEN_CHARACTER_LENGTH + len(knox_settings.TOKEN_PREFIX)
        if len(token) != length or not re.fullmatch(rb"[0-9a-f]+", token[len(knox_settings.TOKEN_PREFIX):]):
            raise exceptions.AuthenticationFailed("Invalid token.")
        return self._check(token.decode("utf-8"))

    def _check(self, token: str):
        """knox's own check (each token with the key: expired ones deleted, the digest compared, the
        person active), reading the tokens through the compiled query."""
        for auth_token in _tokens_with_key(token[:CONSTANTS.TOKEN_KEY_LENGTH]):
            if self._cleanup_token(auth_token):
                continue
            try:
                digest = hash_token(token)
            except (TypeError, binascii.Error):
                raise exceptions.AuthenticationFailed("Invalid token.") from None
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed("Invalid token.")

    def _cleanup_token(self, auth_token) -> bool:
        """Only the token presented: an expired one is deleted and refused. knox also reads all the person's
        other tokens on every call (a query per API request, on the report API's hot path); api_token_create deletes the
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
