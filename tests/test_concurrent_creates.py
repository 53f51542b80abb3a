"""PostgreSQL only: 20 threads creating the same systems, 27 of 100 requests got 500
(IntegrityError). Concurrent creates of the same record answer 201 or 409, never 500, and exactly
one record is made. Real threads, real transactions racing on the unique constraints: PostgreSQL only
(SQLite's in-memory test database is shared-cache, where concurrent writers fail at once with "table is
locked" whatever the busy timeout)."""
import threading

import pytest
from django.db import connection
from knox.models import AuthToken
from rest_framework.test import APIClient

from powts.inventory.models import Owner, Parcel, System

THREADS = 8


@pytest.mark.django_db(transaction=True)
def test_concurrent_creates_of_one_system_answer_201_or_409(settings, dane, make_user):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers race on the constraints on PostgreSQL; see the module docstring")
    key = AuthToken.objects.create(user=make_user("sam", "county_staff", dane))[1]
    barrier = threading.Barrier(THREADS)
    statuses, errors = [], []

    def create(n):
        try:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
            barrier.wait(timeout=30)
            r = client.post("/api/systems/", {"system_id": "RACE-1", "parcel_number": "P-RACE", "system_type": "conventional",
                                              "owner_name": "Rae Racer", "owner_mailing_address": "1 Race Rd"}, format="json")
            statuses.append(r.status_code)
        except Exception as exc:  # noqa: BLE001 - a thread's failure is reported by the test, not lost
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=create, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    assert len(statuses) == THREADS
    assert 500 not in statuses, statuses
    assert set(statuses) <= {201, 400, 409}, statuses
    assert statuses.count(201) == 1, statuses
    assert System.objects.filter(system_id="RACE-1").count() == 1
    assert Parcel.objects.filter(parcel_number="P-RACE").count() == 1
    assert Owner.objects.filter(name="Rae Racer").count() >= 1
