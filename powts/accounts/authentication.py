"""The token check on every API call (DEFAULT_AUTHENTICATION_CLASSES; kept apart from views, which
DRF's settings cannot import while they load).

django-rest-knox: only a digest of each token is stored, each expires (REST_KNOX TOKEN_TTL), a password
change deletes them (User.save), and they are read from the Authorization header only, never a URL.
"""
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox import auth as knox_auth
from rest_framework import exceptions


class TokenAuthentication(knox_auth.TokenAuthentication):
    """knox's check, with a header that is not UTF-8 refused as a bad token instead of a 500."""

    def authenticate_credentials(self, token):
        try:
            token.decode("utf-8")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        return super().authenticate_credentials(token)


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "powts.accounts.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": 'Token-based authentication with required prefix "Token"'}
