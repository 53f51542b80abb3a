"""The grant rules over many rows (speed in memory): each step writes into an array it owns, since a
fresh array of a million rows costs its page faults, more than the arithmetic on it; and the table of failed
tests with their citations (reason_table) gives every row its reasons, on any batch."""
import datetime as dt
import tracemalloc

import numpy as np

from powts.law import batch
from powts.law import columns as C

EPOCH = dt.date(1970, 1, 1)


def _columns(n: int, seed: int = 3) -> batch.GrantColumns:
    """n applications received under s. 145.246 (one law segment), about half failing some test."""
    rng = np.random.default_rng(seed)
    start = (dt.date(2023, 7, 7) - EPOCH).days
    determined = rng.integers(start - 400, start + 900, n)
    business = rng.random(n) < 0.1

    def flag(p):
        return rng.random(n) < p
    return batch.GrantColumns(
        n=n, id=np.arange(n).astype(str).astype(object), errors=C.Errors(n), business=business,
        cond_mask=rng.integers(1, 32, n).astype(np.uint8), determined=determined,
        applied=np.maximum(determined + rng.integers(-5, 1200, n), start),
        installed=rng.integers(-3650, 5475, n), work=np.where(flag(0.3), determined + rng.integers(-3, 90, n), C.NAT),
        sewer=flag(0.05), principal=flag(0.97), units=np.where(flag(0.05), 2, 1).astype(np.int64),
        experimental=flag(0.03), prior=flag(0.03), intentional=flag(0.01), lien=flag(0.03), agreement=flag(0.5),
        gu=np.full(n, "Dane", dtype=object), gu_received=np.full(n, C.NAT),
        income=np.where(business, 0, rng.integers(0, 6_000_000, n)).astype(np.int64),
        revenue=np.where(business, rng.integers(0, 40_000_000, n), 0).astype(np.int64),
        flow=np.where(business, rng.integers(100, 6000, n), np.nan).astype(np.float64),
        table=rng.integers(100_000, 1_400_000, n).astype(np.int64),
        components=np.full(n, None, dtype=object), design_flow=np.full(n, np.nan))


def test_deciding_a_batch_holds_at_most_60_bytes_a_row_at_its_peak():
    # what the results keep (amount, share, the trace...) is about 52 bytes a row; the old code made a
    # new array for each step and held 81 at its peak
    cols = _columns(100_000)
    batch.evaluate(cols)  # parameters and segments loaded once, outside the count
    tracemalloc.start()
    try:
        r = batch.evaluate(cols)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert r.decided.all() and 0 < r.eligible.sum() < cols.n
    assert peak <= 60 * cols.n, f"{peak / cols.n:.0f} bytes a row"


def test_an_empty_batch_has_an_empty_reason_table():
    table, index = batch.evaluate_rows([]).reason_table()  # (old code: IndexError)
    assert index.shape == (0,)


def _expected(r, i):
    if not r.decided[i]:
        return [("input", "")]
    cites = r.segs.snaps[r.seg[i] - 1]["test_citations"]
    return [(t, cites[t]) for t in batch.TESTS if r.failed[i] & batch.BIT[t]]


def test_the_reason_table_gives_every_row_its_failed_tests_and_their_citations():
    # one segment, every row decided (the failed tests alone are the key)
    r = batch.evaluate(_columns(3000))
    table, index = r.reason_table()
    assert r.decided.all() and (r.failed != 0).any()
    assert all(list(table[index[i]]) == _expected(r, i) for i in range(r.cols.n))
    # rows under two versions of the law, and rows not decided
    cols = _columns(3000, seed=4)
    cols.applied[::3] -= 3 * 365  # under s. 145.245
    cols.determined[::3] -= 3 * 365
    cols.applied[1::50] = (dt.date(1950, 1, 1) - EPOCH).days  # before any version
    cols.errors.add(np.arange(2, 3000, 97), ["units_served: not a number"] * 31)
    r = batch.evaluate(cols)
    table, index = r.reason_table()
    assert len(set(r.seg[r.decided].tolist())) == 2 and not r.decided.all()
    assert all(list(table[index[i]]) == _expected(r, i) for i in range(r.cols.n))
