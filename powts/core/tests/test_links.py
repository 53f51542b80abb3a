"""links.id_urls(view)(pk) gives the URL {% url 'view' pk %} gives, for any id and script prefix."""
import pytest
from django.urls import NoReverseMatch, clear_script_prefix, reverse, set_script_prefix

from powts.core.links import id_urls


def id_url(pk, view):
    return id_urls(view)(pk)


@pytest.mark.parametrize("view", ["inventory:system-detail", "maintenance:notice-preview"])
def test_the_same_url_as_reverse_for_every_id_and_prefix(view):
    try:
        for prefix in ("/", "/county/", "/"):
            set_script_prefix(prefix)
            for pk in (0, 1, 7, 10, 9081726354, 123456789012345, "42"):
                assert id_url(pk, view) == reverse(view, args=[pk])
            assert id_url(5, view).startswith(prefix)
    finally:
        clear_script_prefix()


def test_an_id_no_pattern_takes_is_refused_as_reverse_refuses_it():
    with pytest.raises(NoReverseMatch):
        id_url(-1, "inventory:system-detail")
    with pytest.raises(NoReverseMatch):
        id_url(1, "maintenance:notices")  # takes no id
