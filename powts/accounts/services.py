from django.db import transaction

from powts.accounts.models import License, User
from powts.audit.services import audit_create


@transaction.atomic
def user_create(*, username: str, password: str, role: str, jurisdiction=None, first_name: str = "", last_name: str = "",
                email: str = "", is_superuser: bool = False) -> User:
    user = User(username=username, role=role, jurisdiction=jurisdiction, first_name=first_name, last_name=last_name,
                email=email, is_superuser=is_superuser, is_staff=is_superuser)
    user.set_password(password)
    user.full_clean(exclude=["password"])
    user.save()
    audit_create(user, action="account created")
    return user


@transaction.atomic
def license_create(*, kind: str, number: str, holder_name: str, user=None, business_name: str = "", expires_on=None) -> License:
    lic = License(kind=kind, number=number, holder_name=holder_name, user=user, business_name=business_name, expires_on=expires_on)
    lic.full_clean()
    lic.save()
    audit_create(lic, action="license recorded")
    return lic
