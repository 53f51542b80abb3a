"""django-axes' database handler with a second, higher limit for one address over all accounts.

AXES_LOCKOUT_PARAMETERS counts failed sign-ins two ways: one account from one address, and one address
over every account. Axes itself compares the larger of the two with its one AXES_FAILURE_LIMIT; here each
count has its own limit. Counting a person's failures only at the address they came from means nobody
can lock a person out by guessing at their user name from elsewhere (which counting per account allowed,
from any address, for every address); the address count, at POWTS_LOGIN_ADDRESS_FAILURE_LIMIT, still stops
one address guessing at many accounts, a few tries each. (A module of its own: the logging configuration
imports powts.accounts.lockout before Django's apps are ready, and axes' handler imports its models.)
"""
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from django.conf import settings
from django.db.models import Sum


class AccountAtAddressHandler(AxesDatabaseHandler):
    def _counts(self, request, credentials) -> tuple[int, int]:
        """(failures of this account from this address, failures from this address), within the cool-off."""
        account_here, address = (attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
                                 for attempts in self.get_user_attempts(request, credentials))
        return account_here, address

    def get_failures(self, request, credentials=None) -> int:
        """The count axes compares with AXES_FAILURE_LIMIT, both to refuse a sign-in and to lock after a
        failure: the account's at this address, or the limit itself once the address has reached its own."""
        account_here, address = self._counts(request, credentials)
        if address >= settings.POWTS_LOGIN_ADDRESS_FAILURE_LIMIT:
            return max(account_here, get_failure_limit(request, credentials))
        return account_here

    def reset_user_attempts(self, request, credentials=None) -> int:
        """AXES_RESET_ON_SUCCESS: a sign-in clears that account's failures from that address only. Axes would
        clear every failure from the address, so signing in to one's own account would let an address go on
        guessing at others'."""
        account_here = self.filter_user_attempts(request, credentials)[0]
        count, _ = account_here.delete()
        return count
