import shutil

import pytest

from powts.kernel import profiles


@pytest.fixture
def profile_dir(tmp_path, monkeypatch):
    """A copy of the real profiles, with a county `testcounty`, that a test may break; caches emptied."""
    from powts.calendars import loading
    from powts.maintenance import profile as maintenance
    from powts.permits import rules
    from powts.setbacks import rules as setbacks

    root = tmp_path / "profiles"
    shutil.copytree(profiles.PROFILES_DIR, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (root / "testcounty").mkdir()
    (root / "testcounty" / "profile.yaml").write_text("slug: testcounty\nname: Test County\nkind: county\n")
    monkeypatch.setattr(profiles, "PROFILES_DIR", root)
    monkeypatch.setattr(rules, "PROFILES_DIR", root)
    cached = [profiles.read_file, profiles.load_profile, rules._schedules, rules.permit_rules,
              loading.calendar_for, setbacks.rules_for, maintenance.maintenance_profile]
    for fn in cached:
        fn.cache_clear()
    yield root
    for fn in cached:
        fn.cache_clear()
