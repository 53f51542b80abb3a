import secrets

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from knox.models import get_token_model

from powts.accounts.errors import AccountRefused
from powts.accounts.models import CalendarFeed, License, User
from powts.audit.services import audit_create, build_event
from powts.core.refusals import refuse_invalid


@transaction.atomic
def user_create(*, username: str, password: str, role: str, jurisdiction=None, first_name: str = "", last_name: str = "",
                email: str = "", is_superuser: bool = False) -> User:
    user = User(username=username, role=role, jurisdiction=jurisdiction, first_name=first_name, last_name=last_name,
                email=email, is_superuser=is_superuser, is_staff=is_superuser)
    _validate_password(password, user)
    user.set_password(password)
    refuse_invalid(user, AccountRefused, exclude=["password"])
    user.save()
    audit_create(user, action="account created")
    return user


@transaction.atomic
def password_change(*, user: User, password: str) -> User:
    """Sets a new password (AUTH_PASSWORD_VALIDATORS: 12 characters or more, not common, not all digits,
    not like the user's name); User.save then revokes the API tokens and calendar address."""
    _validate_password(password, user)
    user.set_password(password)
    user.save(update_fields=["password"])
    _audit_user(user, action="password changed", changes={"password": ["(old)", "(new)"]})
    return user


@transaction.atomic
def credentials_revoke(*, user: User, reason: str) -> int:
    """Deletes every API token and the calendar address of `user`; returns how many there were."""
    tokens, _ = get_token_model().objects.filter(user=user).delete()
    feeds, _ = CalendarFeed.objects.filter(user=user).delete()
    if tokens or feeds:
        _audit_user(user, action=f"API tokens and calendar address revoked ({reason})",
                    changes={"api_tokens": [tokens, 0], "calendar_address": [bool(feeds), False]})
    return tokens + feeds


MAX_API_TOKENS = 10  # per person: signing in again and again cannot fill the table


@transaction.atomic
def api_token_create(*, user: User) -> tuple[object, str]:
    """A new API token (only its digest is stored); returns (token record, the key to show once).
    The person's expired tokens are deleted, and the oldest beyond MAX_API_TOKENS."""
    tokens = get_token_model().objects.filter(user=user)
    tokens.filter(expiry__lt=timezone.now()).delete()
    stale = list(tokens.order_by("-created").values_list("pk", flat=True)[MAX_API_TOKENS - 1:])
    tokens.filter(pk__in=stale).delete()
    record, key = get_token_model().objects.create(user=user)
    _audit_user(user, action="API token created", changes={"api_token_expiry": [None, record.expiry.isoformat()]})
    return record, key


@transaction.atomic
def calendar_feed_renew(*, user: User) -> str:
    """A new secret calendar address for `user` (the old one stops working); returns the secret, shown once."""
    secret = secrets.token_urlsafe(32)
    CalendarFeed.objects.filter(user=user).delete()
    CalendarFeed.objects.create(user=user, digest=CalendarFeed.digest_of(secret))
    _audit_user(user, action="calendar address made", changes={"calendar_address": [None, "new"]})
    return secret


@transaction.atomic
def calendar_feed_revoke(*, user: User) -> bool:
    deleted, _ = CalendarFeed.objects.filter(user=user).delete()
    if deleted:
        _audit_user(user, action="calendar address revoked", changes={"calendar_address": [True, False]})
    return bool(deleted)


@transaction.atomic
def license_create(*, kind: str, number: str, holder_name: str, user=None, business_name: str = "", expires_on=None) -> License:
    lic = License(kind=kind, number=number, holder_name=holder_name, user=user, business_name=business_name, expires_on=expires_on)
    refuse_invalid(lic, AccountRefused)
    lic.save()
    audit_create(lic, action="license recorded")
    return lic


def _validate_password(password: str, user: User) -> None:
    try:
        password_validation.validate_password(password, user=user)
    except ValidationError as exc:
        raise AccountRefused.several({"password": exc.messages}) from None


def _audit_user(user: User, *, action: str, changes: dict) -> None:
    build_event(user, action=action, verb="update", changes=changes).save()
