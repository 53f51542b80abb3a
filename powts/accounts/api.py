"""POST /api/token/: user name and password -> a token that expires (see authentication.py)."""
from django.contrib.auth import authenticate
from django.contrib.auth.signals import user_logged_in
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from powts.accounts.services import api_token_create


class TokenSignInSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False, style={"input_type": "password"})


class TokenResponseSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='Send it as "Authorization: Token <token>".')
    expiry = serializers.DateTimeField(help_text="When the token stops working; sign in again for a new one.")


_error = inline_serializer("TokenError", {"detail": serializers.CharField()})


class TokenView(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)

    # 400 (a field missing, a body that is not JSON, or a user name and password that do not match) is
    # documented for every endpoint at once by powts.core.schema.
    @extend_schema(request=TokenSignInSerializer, responses={
        200: TokenResponseSerializer,
        429: OpenApiResponse(_error, description="Too many failed sign-ins for this account from this address, or from this "
                                         "address; wait and retry."),
    }, auth=[])
    def post(self, request):
        form = TokenSignInSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        # The Django request, so django-axes can count failures and lock out (AxesMiddleware answers 429).
        user = authenticate(request._request, username=form.validated_data["username"],
                            password=form.validated_data["password"])
        if user is None or not user.is_active:
            return Response({"errors": {"non_field_errors": ["That user name and password do not match."]}},
                            status=status.HTTP_400_BAD_REQUEST)
        user_logged_in.send(sender=user.__class__, request=request._request, user=user)  # axes resets the count
        record, key = api_token_create(user=user)
        return Response(TokenResponseSerializer({"token": key, "expiry": record.expiry}).data)
