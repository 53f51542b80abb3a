"""A PostgreSQL restart during the API load: "requests fail cleanly and
clients retry". A request whose database stops answering is a 503 with Retry-After (JSON on the API, a
page that needs no database on the web), never a 500; the next request works again."""
import pytest
from django.db import OperationalError


@pytest.fixture
def database_down(monkeypatch):
    from powts.inventory import selectors

    real = selectors.system_list

    def down(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(selectors, "system_list", down)
    return lambda: monkeypatch.setattr(selectors, "system_list", real)


def test_the_api_answers_503_with_retry_after_then_works_again(client, staff, database_down):
    client.force_login(staff)
    response = client.get("/api/systems/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "database" in response.json()["errors"]
    database_down()  # the database is back
    assert client.get("/api/systems/").status_code == 200


def test_a_page_answers_503_with_a_page_that_needs_no_database(client, staff, database_down):
    client.force_login(staff)
    response = client.get("/inventory/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert "<h1>powts is back in a moment</h1>" in page and 'lang="en"' in page


def test_other_errors_are_not_taken_for_a_database_restart(client, staff, monkeypatch):
    from powts.inventory import selectors

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(selectors, "system_list", broken)
    client.force_login(staff)
    client.raise_request_exception = False
    assert client.get("/inventory/").status_code == 500
