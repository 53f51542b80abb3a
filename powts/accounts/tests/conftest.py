import pytest

PASSWORD = "a-long-test-password"  # conftest.make_user's


@pytest.fixture
def access_log(settings):
    """access_log() -> the lines written since the fixture was made, also across the log's rotation at
    midnight (UTC): the old file, renamed, gives its lines after the offset, the new one all of its own.
    (A CI run that started at 23:57 read the new file from the old file's offset: half a line.)"""
    path = settings.DATA_DIR / "logs" / "access.log"
    was = path.stat() if path.exists() else None

    def lines(file, start):
        with open(file, encoding="utf-8") as handle:
            handle.seek(start)
            return handle.read().splitlines()

    def read():
        if was is None or path.stat().st_ino == was.st_ino:
            return lines(path, was.st_size if was else 0)
        rotated = [p for p in path.parent.glob("access.log.*") if p.stat().st_ino == was.st_ino]
        return (lines(rotated[0], was.st_size) if rotated else []) + lines(path, 0)

    return read
