import secrets
import smtplib

from django.conf import settings
from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import models, transaction
from django.utils import timezone
from knox.models import get_token_model

from powts.accounts.choices import COUNTY_ROLES, LicenseKind, Role
from powts.accounts.errors import AccountRefused
from powts.accounts.models import CalendarFeed, License, User
from powts.audit.services import audit_create, audit_delete, audit_update, build_event, snapshot
from powts.core.refusals import refuse_invalid
from powts.inventory.versions import claim_version, versioned_save, with_reason


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


# ---------------------------------------------------------------- a county's own people, managed by its administrator

LICENSE_EDITABLE = ("kind", "number", "holder_name", "business_name", "mailing_address", "expires_on")


@transaction.atomic
def license_update(*, license: License, data: dict, version, reason: str) -> License:
    """Correct a license on record (a renewal's new expiry, a typing slip in its number). `version`: the one
    the editor saw; a stale one is refused with what changed (powts.inventory.versions)."""
    for field in data:
        if field not in LICENSE_EDITABLE:
            raise AccountRefused(f"{field} cannot be changed here", field=field)
    kind, number = data.get("kind", license.kind), data.get("number", license.number)
    if License.objects.filter(kind=kind, number=number).exclude(pk=license.pk).exists():
        raise AccountRefused(f"number {number!r} is already on record for another {LicenseKind(kind).label.lower()} license",
                             field="number")
    return versioned_save(license, data, version=version, refusal=AccountRefused, action="license edited", reason=reason)


def county_users(*, jurisdiction):
    """A county's people: its staff and administrators, and the owners signed in to its owner records."""
    from powts.inventory.models import Owner

    owners = Owner.objects.filter(jurisdiction=jurisdiction, user__isnull=False).values("user_id")
    return User.objects.filter(models.Q(jurisdiction=jurisdiction, role__in=COUNTY_ROLES) |
                               models.Q(role=Role.OWNER, pk__in=owners))


def _check_county_person(*, by: User, person: User) -> None:
    if not county_users(jurisdiction=by.jurisdiction).filter(pk=person.pk).exists():
        raise AccountRefused("that person is not one of your county's users", field=None)


@transaction.atomic
def county_user_create(*, by: User, username: str, email: str, role: str, reason: str, accept_url,
                       first_name: str = "", last_name: str = "") -> User:
    """A new member of the administrator's county (staff or administrator). No password is set: the
    person gets an email with a link to choose one (`accept_url(user)` builds it)."""
    if role not in COUNTY_ROLES:
        raise AccountRefused(f"role must be {' or '.join(sorted(r.label.lower() for r in COUNTY_ROLES))}", field="role")
    if User.objects.filter(username__iexact=username).exists():
        raise AccountRefused(f"username {username!r} is already taken", field="username")
    user = User(username=username, email=email, role=role, jurisdiction=by.jurisdiction, first_name=first_name,
                last_name=last_name)
    user.set_unusable_password()
    refuse_invalid(user, AccountRefused, exclude=["password"])
    user.save()
    audit_create(user, action=with_reason(f"account created by {by.display_name}", reason))
    _send_invitation(user, accept_url(user), county=by.jurisdiction.name, what="the county's POWTS program")
    return user


@transaction.atomic
def county_user_update(*, by: User, person: User, role: str | None = None, is_active: bool | None = None,
                       reason: str, version=None, firm_name: str | None = None,
                       relatives: list[tuple[str, str]] | None = None) -> User:
    """Change a county person's role (staff or administrator) or sign-in (deactivate, reactivate), and the firm and
    relatives on their record (the county's recusal policy: powts.accounts.conflicts).
    `version`: the one the administrator saw; when another saved the person meanwhile, StaleEdit says what
    they changed and nothing is saved (None: a change no editor saw, which still moves the version on)."""
    _check_county_person(by=by, person=person)
    if person.pk == by.pk:
        raise AccountRefused("you cannot change your own role or deactivate yourself; ask another administrator",
                             field="role" if role is not None and role != person.role else "is_active")
    before = snapshot(person, ["role", "is_active", "firm_name", "version"])
    if role is not None and role != person.role and (person.role not in COUNTY_ROLES or role not in COUNTY_ROLES):
        raise AccountRefused("only county staff and administrators change role here", field="role")
    claim_version(person, version)
    if firm_name is not None:
        person.firm_name = firm_name.strip()[:200]
    if relatives is not None:
        _relatives_set(person, relatives, reason)
    if role is not None:
        person.role = role
    if is_active is not None:
        person.is_active = is_active
    person.save(update_fields=["role", "is_active", "firm_name", "version"])
    event = audit_update(person, before=before, action=with_reason(f"account changed by {by.display_name}", reason))
    if event and is_active is False:
        credentials_revoke(user=person, reason="account deactivated")
    return person


def _relatives_set(person: User, relatives: list[tuple[str, str]], reason: str) -> None:
    """The relatives on a county person's record become `relatives` (name, relationship); each change audited."""
    from powts.accounts.models import Relative

    wanted = {name.strip(): relationship.strip() for name, relationship in relatives if name.strip()}
    for r in list(person.relatives.all()):
        if r.name not in wanted:
            audit_delete(r, action=with_reason(f"relative removed from {person.username}'s record", reason))
            r.delete()
        elif wanted[r.name] != r.relationship:
            before = snapshot(r, ["relationship"])
            r.relationship = wanted[r.name]
            r.save(update_fields=["relationship"])
            audit_update(r, before=before, action=with_reason("relationship corrected", reason))
    have = set(person.relatives.values_list("name", flat=True))
    for name, relationship in wanted.items():
        if name not in have:
            r = Relative.objects.create(user=person, name=name, relationship=relationship)
            audit_create(r, action=with_reason(f"relative named on {person.username}'s record", reason))


@transaction.atomic
def owner_invite(*, by: User, owner, email: str, reason: str, accept_url) -> User:
    """Invite a property owner to sign in: an owner account linked to their owner record (they then see
    only their own property), and an email with a link to choose a password. A refused address (the
    mail server says it cannot deliver) is a refusal naming `email`, and nothing is kept."""
    if owner.jurisdiction_id != by.jurisdiction_id:
        raise AccountRefused("that owner is not in your county's records", field="owner")
    if owner.user_id:
        raise AccountRefused(f"{owner.name} already has a sign-in ({owner.user.username})", field="owner")
    if User.objects.filter(username__iexact=email).exists():
        raise AccountRefused(f"email {email!r} already has a sign-in; link it from that account instead", field="email")
    first, _, last = owner.name.partition(" ")
    user = User(username=email, email=email, role=Role.OWNER, first_name=first[:150], last_name=last[:150])
    user.set_unusable_password()
    refuse_invalid(user, AccountRefused, exclude=["password"])
    user.save()
    audit_create(user, action=with_reason(f"owner invited by {by.display_name}", reason))
    before = snapshot(owner, ["user_id", "email", "version"])
    claim_version(owner, None)  # an editor with the owner's form open is told
    owner.user = user
    owner.email = owner.email or email
    owner.save(update_fields=["user", "email", "version"])
    audit_update(owner, before=before, action=with_reason(f"sign-in {email} linked by {by.display_name}", reason))
    _send_invitation(user, accept_url(user), county=by.jurisdiction.name, what="your property's septic system records")
    return user


@transaction.atomic
def invitation_accept(*, user: User, password: str) -> User:
    """The invited person chooses their password (the link's token is checked by the view)."""
    _validate_password(password, user)
    user.set_password(password)
    user.save(update_fields=["password"])
    _audit_user(user, action="invitation accepted: password chosen", changes={"password": ["(none)", "(set)"]})
    return user


def _send_invitation(user: User, link: str, *, county: str, what: str) -> None:
    """Sent inside the transaction: a mail server refusing the address undoes the invitation."""
    body = (f"Hello {user.display_name},\n\n{county} invites you to sign in to powts, where you can see {what}.\n\n"
            f"Choose your password here (the link works once, for {settings.PASSWORD_RESET_TIMEOUT // 86400} days):\n"
            f"{link}\n\nYour user name is {user.username}.\n\nIf you did not expect this message, you can ignore it.\n")
    try:
        send_mail(f"{county}: your powts sign-in", body, None, [user.email])
    except (smtplib.SMTPException, OSError) as exc:
        raise AccountRefused(f"email {user.email!r} could not be sent to: {exc}", field="email") from None
