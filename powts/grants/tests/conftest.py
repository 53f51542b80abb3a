import pytest


@pytest.fixture(autouse=True)
def forget_kept_caseload():
    """Each test's database is rolled back (ids reused): the what-if's kept caseload must not outlive it."""
    from powts.grants import caseload

    caseload._KEPT.clear()
    yield
    caseload._KEPT.clear()
