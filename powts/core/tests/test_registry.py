"""One registry, filled in each app's AppConfig.ready, for system-page panels, after-import
hooks and demo loaders (before: a settings list of dotted paths, another settings list, and a list in the
demo command)."""
import pytest
from django.conf import settings

from powts.core import registry


def test_each_app_registers_its_panels_hooks_and_demo_loaders_in_ready():
    assert [(e.label, e.template) for e in registry.entries("system_panel")] == [
        ("maintenance", "maintenance/_system_maintenance.html"), ("permits", "permits/_system_permits.html"),
        ("complaints", "permits/_system_complaints.html"), ("documents and photos", "attachments/_system_attachments.html")]
    assert [e.label for e in registry.entries("after_import")] == ["maintenance schedules", "map clusters"]
    assert [e.label for e in registry.entries("dashboard_panel")] == ["complaints", "new-parcels", "oversight"]
    assert [e.label for e in registry.entries("demo_loader")] == [
        "maintenance (schedules, reports, notices)", "permits", "variances (for DSPS)", "grants (a fiscal year of applications)",
        "well compensation claims", "grants program (certification, participation, allocation)",
        "oversight (audits, flags, referrals, assessments)", "oversight (random inspections of applications)"]
    assert [(e.label, e.template) for e in registry.entries("permit_panel")] == [("issuance hold", "oversight/_permit_hold.html")]
    assert all(callable(e.target) for kind in registry.KINDS for e in registry.entries(kind))


def test_the_old_settings_lists_are_gone():
    assert not hasattr(settings, "POWTS_SYSTEM_PANELS") and not hasattr(settings, "POWTS_AFTER_IMPORT")


def test_registering_the_same_label_again_replaces_it_and_a_panel_needs_a_template():
    before = registry.entries("demo_loader")
    try:
        registry.register("demo_loader", "permits", len, order=20)
        assert [e.target for e in registry.entries("demo_loader") if e.label == "permits"] == [len]
    finally:
        for e in before:
            registry.register(e.kind, e.label, e.target, template=e.template, order=e.order)
    assert registry.entries("demo_loader") == before
    with pytest.raises(ValueError, match="template"):
        registry.register("system_panel", "x", len)
    with pytest.raises(ValueError, match="unknown registry kind"):
        registry.register("widgets", "x", len)
