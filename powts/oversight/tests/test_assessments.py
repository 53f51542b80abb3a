"""Wis. Stat. s. 145.20(4): the governmental unit (the county; in Lincoln also, under its holding tank Maintenance
Agreement (1), the town that signed the agreement and services the tank) has the pumping done when the owner does
not comply with an order, and assesses the cost as a special charge; the treasurer's tax roll is exported. Dane's
text gives towns no such power: s. 46.06(5)(b) only has owners file contracts and reports with them."""
import csv
import datetime as dt
import io
from decimal import Decimal

import pytest

from powts.core.refusals import Refused
from powts.oversight import services
from powts.oversight.errors import OversightRefused
from powts.oversight.models import Assessment
from powts.permits.services import enforcement as enf

D = dt.date


@pytest.fixture
def order_in(make_system):
    def make(unit, system_id="S-1"):
        system = make_system(system_id, jurisdiction=unit)
        return enf.correction_order_issue(system=system, on=D(2026, 3, 1), correct_by=D(2026, 4, 1), requirement="Pump the septic tank")
    return make


def _assess(unit, order, **kw):
    args = dict(jurisdiction=unit, parcel_number=order.system.parcel.parcel_number, order=order, cost="385.00",
                work_done_on=D(2026, 4, 2), work="Septic tank pumped", authority_kind="county", authority_name="", on=D(2026, 4, 10))
    args.update(kw)
    return services.assessment_record(**args)


@pytest.mark.parametrize("slug,citation", [
    ("dane", "Wis. Stat. s. 145.20(4)"),
    ("lincoln", "Wis. Stat. s. 145.20(4); Lincoln County Ch. 22 (draft), HOLDING TANK MAINTENANCE AGREEMENT (1)"),
])
def test_the_county_assesses_after_the_order_ran_out(request, slug, citation, order_in):
    unit = request.getfixturevalue(slug)
    order = order_in(unit)
    a = _assess(unit, order)
    assert a.cost == Decimal("385.00") and a.authority_name == unit.name and a.tax_year == 2026 and a.citation == citation


def test_145_20_4_in_lincoln_the_town_that_services_the_holding_tank_assesses(lincoln, order_in):
    """Lincoln Ch. 22 (draft), Holding Tank Maintenance Agreement (1): the town that signed the agreement services
    the tank when the owner does not; it may assess that cost."""
    town = _assess(lincoln, order_in(lincoln), authority_kind="town", authority_name="Town of Merrill", cost="120.5")
    assert town.cost == Decimal("120.50") and town.authority_kind == "town"


def test_145_20_4_a_dane_town_may_not_levy_the_special_charge(dane, order_in):
    """s. 145.20(4) empowers the governmental unit responsible for regulation (the county); Dane s. 46.06(5)(b)
    grants the town that signed a service agreement no power to pump or assess: refused, cited, nothing saved."""
    order = order_in(dane)
    with pytest.raises(OversightRefused) as exc:
        _assess(dane, order, authority_kind="town", authority_name="Town of Verona")
    assert exc.value.field == "authority_kind" and exc.value.citation == "Wis. Stat. s. 145.20(4)"
    assert not Assessment.objects.exists()


def test_work_on_the_last_day_to_comply_is_not_assessed(dane, order_in):
    order = order_in(dane)
    with pytest.raises(OversightRefused, match="before the owner's time to comply ran out"):
        _assess(dane, order, work_done_on=order.correct_by)
    assert _assess(dane, order, work_done_on=order.correct_by + dt.timedelta(days=1)).pk


def test_an_assessment_on_a_parcel_not_in_the_county_is_refused(dane, lincoln, order_in):
    """Bad input: an assessment on a parcel not in the county; nothing half-saved."""
    lincoln_order = order_in(lincoln, "L-1")
    dane_order = order_in(dane, "D-1")
    with pytest.raises(OversightRefused) as exc:
        _assess(dane, dane_order, parcel_number=lincoln_order.system.parcel.parcel_number)
    assert exc.value.field == "parcel_number" and "not in Dane County" in exc.value.message
    with pytest.raises(OversightRefused, match="not for a system on parcel"):
        _assess(lincoln, dane_order, parcel_number=lincoln_order.system.parcel.parcel_number)
    with pytest.raises(Refused, match="cost"):
        _assess(dane, dane_order, cost="0")
    with pytest.raises(OversightRefused, match="authority_kind"):
        _assess(dane, dane_order, authority_kind="state")
    assert not Assessment.objects.exists()


def test_a_complied_order_is_not_assessed(dane, order_in):
    order = order_in(dane)
    enf.correction_order_close(order=order, on=D(2026, 3, 20))
    with pytest.raises(OversightRefused, match="complied"):
        _assess(dane, order)


def test_the_tax_roll_export_has_parcel_amount_and_authority(client, dane, order_in, make_user):
    order = order_in(dane)
    _assess(dane, order)
    client.force_login(make_user("sam", "county_staff", dane))
    body = b"".join(client.get("/oversight/special-charges/?tax_year=2026&export=csv").streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][:3] == ["Parcel number", "Amount", "Authority"]
    assert rows[1][:3] == [order.system.parcel.parcel_number, "385.00", "Dane County"]
    xlsx = client.get("/oversight/special-charges/?tax_year=2026&export=xlsx")
    assert xlsx.status_code == 200
