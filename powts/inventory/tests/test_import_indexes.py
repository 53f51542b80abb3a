"""Index cost: the indexes no query reads are gone from the tables the import writes, and the
queries that could have read them are still answered by an index.

PostgreSQL only: the dropped indexes (Django's `varchar_pattern_ops` copies and the parcel's single-column county
index) exist only there. Each query is asked of tables of a few thousand rows, analysed, with sequential scans
priced out (`enable_seqscan = off`): on a few rows every index costs the same, and a CI run walked the (county,
type, status) index for a status alone. Each value a query asks for is rare among the rows.
"""
import pytest
from django.db import connection

from powts.audit.models import AuditEvent
from powts.core.tests.table_copies import copies
from powts.inventory.models import Owner, Parcel, System

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's pattern-ops copies")]

IMPORT_TABLES = ("inventory_parcel", "inventory_owner", "inventory_ownership", "inventory_system",
                 "inventory_component", "audit_auditevent")


def indexes() -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s)", [list(IMPORT_TABLES)])
        return dict(cursor.fetchall())


@pytest.fixture
def a_county_of_rows(dane):
    """3,000 of each row the queries read, the values they ask for one in a hundred or fewer."""
    from powts.inventory.services import system_create

    system_create(jurisdiction=dane, system_id="DA-1", parcel_number="P-1", system_type="conventional",
                  owner_name="Olive Owner", owner_mailing_address="12 Lake Rd, Verona, WI 53593",
                  site_address="12 Lake Rd", municipality="Town of Verona")
    copies("inventory_parcel", 3000, parcel_number="'0608-' || g",
            municipality="CASE WHEN g % 100 = 0 THEN 'Town of Dunn' ELSE 'Town of Verona' END")
    copies("inventory_owner", 3000, name="'Owner ' || g")
    copies("inventory_system", 3000, system_id="'DA-' || (g + 1)",
            status="CASE WHEN g % 100 = 0 THEN 'failing' ELSE 'active' END",
            system_type="CASE WHEN g % 100 = 0 THEN 'mound' ELSE 'conventional' END")
    copies("audit_auditevent", 3000, batch="'import-' || g")


def plan(queryset) -> str:
    # without the model's default ordering, which a planner may answer by walking another index and filtering
    sql, params = queryset.order_by().query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(r[0] for r in cursor.fetchall())


def test_no_prefix_copy_and_no_county_index_covered_by_the_unique_one():
    found = indexes()
    assert not [name for name, sql in found.items() if "varchar_pattern_ops" in sql]
    assert "inventory_parcel_jurisdiction_id_30adeb16" not in found
    # the ones the pages and the import read are kept
    for kept in ("parcel_number_unique", "system_id_unique", "inventory_system_jurisdiction_id_9217e6a7",
                 "inventory_system_status_1471429b", "inventory_system_system_type_1f48992e",
                 "inventory_parcel_municipality_d386c8e4", "inventory_owner_name_27598e30",
                 "audit_auditevent_batch_ad97938f", "inventory_system_search_trgm"):
        assert kept in found, kept


@pytest.mark.parametrize("queryset, index", [
    (lambda: Parcel.objects.filter(jurisdiction_id=1), "parcel_number_unique"),
    (lambda: Parcel.objects.filter(jurisdiction_id=1, parcel_number="0608-123"), "parcel_number_unique"),
    (lambda: Parcel.objects.filter(municipality="Town of Dunn"), "inventory_parcel_municipality_d386c8e4"),
    (lambda: System.objects.filter(status="failing"), "inventory_system_status_1471429b"),
    (lambda: System.objects.filter(system_type="mound"), "inventory_system_system_type_1f48992e"),
    (lambda: Owner.objects.filter(name="Jane Smith"), "inventory_owner_name_27598e30"),
    (lambda: AuditEvent.objects.filter(batch="import-0123456789ab"), "audit_auditevent_batch_ad97938f"),
])
def test_what_the_dropped_indexes_could_answer_is_answered_by_a_kept_one(a_county_of_rows, queryset, index):
    found = plan(queryset())
    assert f"using {index} " in found or f"Index Scan on {index}" in found, found
