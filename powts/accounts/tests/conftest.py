import pytest

PASSWORD = "a-long-test-password"  # conftest.make_user's


@pytest.fixture
def access_log(settings):
    """access_log() -> the lines written since the fixture was made."""
    path = settings.DATA_DIR / "logs" / "access.log"
    start = path.stat().st_size if path.exists() else 0

    def read():
        with open(path, encoding="utf-8") as handle:
            handle.seek(start)
            return handle.read().splitlines()

    return read
