"""Property tests: the batch path equals the one-case path on random applications; more income
never yields a larger grant or award."""
from __future__ import annotations

import datetime as dt

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from powts.law import grants, wells
from powts.law.batch import evaluate_rows

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWER = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

dates = st.dates(min_value=dt.date(1960, 1, 1), max_value=dt.date(2030, 12, 31))
recent = st.dates(min_value=dt.date(1999, 1, 1), max_value=dt.date(2030, 12, 31))
money = st.integers(min_value=0, max_value=20_000_000).map(lambda c: f"{c // 100}.{c % 100:02d}")
letters = st.lists(st.sampled_from("abcde"), min_size=1, max_size=3)


@st.composite
def applications(draw):
    kind = draw(st.sampled_from(["residence", "business"]))
    determined = draw(recent)
    row = {
        "id": draw(st.text(alphabet="ABC123", min_size=1, max_size=5)),
        "applicant_type": kind,
        "failure_conditions": draw(st.one_of(letters, letters.map(";".join))),
        "failure_determined_on": determined.isoformat(),
        "applied_on": (determined + dt.timedelta(days=draw(st.integers(-30, 1200)))).isoformat(),
        "system_installed_on": draw(st.dates(dt.date(1970, 1, 1), dt.date(1985, 1, 1))).isoformat(),
        "sewer_available": draw(st.sampled_from([False, False, True, "no", "yes", ""])),
        "principal_residence": draw(st.sampled_from([True, True, False, "", None])),
        "units_served": draw(st.sampled_from([None, 1, 2, "3"])),
        "experimental": draw(st.booleans()),
        "prior_grant": draw(st.booleans()),
        "intentionally_caused": draw(st.sampled_from([False, False, True])),
        "on_support_lien_docket": draw(st.booleans()),
        "has_payment_agreement": draw(st.booleans()),
        "governmental_unit": draw(st.sampled_from(["Dane", "Lincoln"])),
    }
    if draw(st.booleans()):
        row["work_started_on"] = (determined + dt.timedelta(days=draw(st.integers(-10, 60)))).isoformat()
    if kind == "residence":
        row["annual_family_income"] = draw(money)
    else:
        row["annual_gross_revenue"] = draw(st.integers(0, 50_000_000).map(lambda c: f"{c // 100}.{c % 100:02d}"))
        row["daily_flow_gpd"] = draw(st.sampled_from([100, 4999, 5000, "2500.5"]))
    if draw(st.booleans()):
        row["funding_table_amount"] = draw(money)
    else:
        row["components"] = draw(st.lists(st.sampled_from(["septic_tank", "dosing_tank", "mound", "at_grade"]), min_size=1, max_size=3))
        row["design_flow_gpd"] = draw(st.sampled_from([150, 300, 301, 450, 451, 600, 601, 1200]))
    # now and then a bad value, which both paths must refuse with the same words
    if draw(st.integers(0, 9)) == 0:
        field = draw(st.sampled_from(["applied_on", "annual_family_income", "failure_conditions", "units_served"]))
        row[field] = draw(st.sampled_from(["", "x", "-1", "2024-02-30", "f;a"]))
    return row


def _as_csv_strings(row):
    """What the same row looks like coming from a CSV file."""
    out = {}
    for k, v in row.items():
        if v is None:
            out[k] = ""
        elif isinstance(v, bool):
            out[k] = "true" if v else "false"
        elif isinstance(v, list):
            out[k] = ";".join(v)
        else:
            out[k] = str(v)
    return out


@SETTINGS
@given(st.lists(applications(), min_size=1, max_size=8), st.booleans())
def test_batch_equals_one_case(rows, as_csv):
    if as_csv:
        rows = [_as_csv_strings(r) for r in rows]
        keys = set().union(*rows)
        rows = [{k: r.get(k, "") for k in keys} for r in rows]
    r = evaluate_rows(rows)
    for i, row in enumerate(rows):
        one = grants.decide_row(row)
        reasons, explanation = r.render(i)
        assert (bool(r.eligible[i]), int(r.amount[i]), int(r.category[i]) or None, r.version(i)) == \
            (one.eligible, one.amount, one.category, one.version), (row, one.explanation)
        assert reasons == one.reasons
        assert explanation == one.explanation


@SETTINGS
@given(applications(), st.integers(0, 2_000_000))
def test_more_income_never_a_larger_grant(row, extra_cents):
    row = dict(row, applicant_type="residence")
    row.setdefault("annual_family_income", "30000")
    low = grants.decide_row(row)
    if low.error:
        return
    higher = low_income = grants.parse_application(row).annual_family_income
    higher = low_income + extra_cents
    high = grants.decide_row(dict(row, annual_family_income=f"{higher // 100}.{higher % 100:02d}"))
    assert high.amount <= low.amount
    assert high.state_share <= low.state_share


claims = st.fixed_dictionaries({
    "id": st.just("W"),
    "claimant_type": st.sampled_from(["landowner", "lessee", "heir", "municipality"]),
    "supply_use": st.sampled_from(["residential", "livestock"]),
    "well_kind": st.sampled_from(["drilled", "dug"]),
    "dwelling_units": st.integers(1, 20),
    "sample_dates": st.lists(st.dates(dt.date(2023, 1, 1), dt.date(2024, 1, 31)).map(str), max_size=3),
    "lab_certified": st.booleans(),
    "department_advisory": st.booleans(),
    "annual_family_income": money,
    "eligible_costs": money,
    "claimed_on": st.just("2024-02-01"),
})


@SETTINGS
@given(claims, st.integers(0, 3_000_000))
def test_more_income_never_a_larger_award(claim, extra_cents):
    low = wells.decide_row(claim)
    cents = wells.parse_claim(claim).annual_family_income + extra_cents
    high = wells.decide_row(dict(claim, annual_family_income=f"{cents // 100}.{cents % 100:02d}"))
    assert high.award <= low.award


@FEWER
@given(st.lists(applications(), min_size=1, max_size=12))
def test_bulk_words_equal_row_words(rows):
    """render.grant_frame over all rows at once writes exactly what each row alone gets."""
    from powts.law.render import grant_frame

    r = evaluate_rows(rows)
    frame = grant_frame(r)
    for i, row in enumerate(frame.iter_rows(named=True)):
        assert (row["reason_list"], row["explanation"]) == r.render(i)


@FEWER
@given(st.lists(applications(), min_size=1, max_size=12))
def test_csv_reads_back_as_row_words(rows):
    """The CSV the command line writes: valid CSV whose fields are exactly the per-row words."""
    import csv
    import io

    from powts.law.render import grant_frame

    r = evaluate_rows(rows)
    text = grant_frame(r, reason_text=True, reason_list=False).write_csv()
    for i, fields in enumerate(csv.DictReader(io.StringIO(text))):
        reasons, explanation = r.render(i)
        joined = "; ".join(f"{x['text']} ({x['citation']})" if x["citation"] else x["text"] for x in reasons)
        assert fields["eligible"] == ("true" if r.eligible[i] else "false")
        assert fields["amount"] == f"{r.amount[i] // 100}.{r.amount[i] % 100:02d}"
        assert fields["category"] == (str(int(r.category[i])) if r.category[i] else "")
        assert fields["reasons"] == joined and fields["explanation"] == explanation
