"""The menu and each role's home, decided in one list.

Each entry is a page (URL name) and the policy that decides who may open it, named as a dotted path
so that core imports no app; base.html shows the entries the signed-in person may open, in order.
A person's home is the first page of their role's list in HOMES that they may open. The API's
documentation is for software people, linked from each person's account page (where API tokens are).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.module_loading import import_string


@dataclass(frozen=True)
class Entry:
    label: str
    url_name: str
    policy: str  # "module.function": function(user) -> bool
    group: str = ""  # entries of one group are one drop-down, so a role with many pages keeps one row of menu


def signed_in(user) -> bool:
    return bool(user.is_authenticated)


MENU: tuple[Entry, ...] = (
    Entry("Counties", "jurisdictions:list", "powts.jurisdictions.policies.can_list_counties"),
    Entry("Dashboard", "maintenance:dashboard", "powts.maintenance.policies.can_see_dashboard"),
    Entry("My property", "maintenance:mine", "powts.maintenance.policies.is_owner"),
    Entry("Inventory", "inventory:system-list", "powts.inventory.policies.can_browse"),
    Entry("Map", "maps:map", "powts.maps.policies.can_view_map"),
    Entry("Notices", "maintenance:notices", "powts.maintenance.policies.can_send_notices"),
    Entry("File a report", "maintenance:report", "powts.maintenance.policies.can_file_reports"),
    Entry("Reports", "maintenance:reports", "powts.maintenance.policies.can_list_reports"),
    Entry("Permits", "permits:list", "powts.permits.policies.can_browse"),
    Entry("Soil and orders", "permits:site", "powts.permits.policies.can_open_site_work"),
    Entry("Wisconsin Fund", "grants_program:county", "powts.grants.program_policies.can_view_county_side", group="Grants and wells"),
    Entry("Grant program", "grants_program:queue", "powts.grants.program_policies.can_view_state_side", group="Grants and wells"),
    Entry("Grants", "grants:list", "powts.grants.policies.can_browse", group="Grants and wells"),
    Entry("My payments", "grants:my-payments", "powts.grants.policies.can_see_own_payments", group="Grants and wells"),
    Entry("Variances", "permits:variances", "powts.permits.policies.can_see_variances", group="Grants and wells"),
    Entry("Well claims", "wells:claim-list", "powts.wells.policies.can_read_claims", group="Grants and wells"),
    Entry("Licenses", "accounts:license-list", "powts.accounts.policies.can_edit_licenses"),
    Entry("County programs", "oversight:state", "powts.oversight.policies.reads_state_view", group="Oversight"),
    Entry("Program audits", "oversight:audits", "powts.oversight.policies.opens_county_pages", group="Oversight"),
    Entry("Flagged reports", "oversight:flags", "powts.oversight.policies.opens_county_pages", group="Oversight"),
    Entry("Random inspections of applications", "oversight:application-samples", "powts.oversight.policies.opens_county_pages",
          group="Oversight"),
    Entry("Special charges", "oversight:assessments", "powts.oversight.policies.opens_county_pages", group="Oversight"),
    Entry("Department approvals", "oversight:categories", "powts.oversight.policies.reads_categories", group="Oversight"),
    Entry("Users", "accounts:user-list", "powts.accounts.policies.can_manage_users"),
    Entry("County settings", "jurisdictions:settings", "powts.jurisdictions.policies.can_change_own_settings"),
    Entry("Your account", "accounts:account", "powts.core.menus.signed_in"),
)

# role -> the pages that are its home, first one the person may open wins: each role lands on its own home.
HOMES: dict[str, tuple[str, ...]] = {
    "county_staff": ("maintenance:dashboard",),
    "county_admin": ("maintenance:dashboard",),
    "pumper": ("maintenance:report",),
    "plumber": ("permits:list",),
    "soil_tester": ("permits:site",),
    "owner": ("maintenance:mine",),
    "state_auditor": ("jurisdictions:list",),
    "dsps": ("jurisdictions:list",),
    "dnr": ("wells:claim-list", "jurisdictions:list"),
}
FALLBACK_HOMES = ("maintenance:dashboard", "inventory:system-list", "accounts:account")


@cache
def _policy(path: str):
    return import_string(path)


def may_open(user, url_name: str) -> bool:
    """True when some menu entry for `url_name` lets `user` open it."""
    return any(_policy(e.policy)(user) for e in MENU if e.url_name == url_name)


def menu_for(user, current_path: str = "") -> list[dict]:
    """The entries `user` may open, with their address and whether it is the page being shown. The
    entries of a group come as one item with `children` (a drop-down), in the place of its first entry;
    a group of which the person may open one page only is that page's plain link."""
    if not getattr(user, "is_authenticated", False):
        return []
    out: list[dict] = []
    groups: dict[str, dict] = {}
    for e in MENU:
        if not _policy(e.policy)(user):
            continue
        href = reverse(e.url_name)
        item = {"label": e.label, "href": href, "current": current_path == href}
        if not e.group:
            out.append(item)
            continue
        if e.group not in groups:
            groups[e.group] = {"label": e.group, "children": [], "current": False}
            out.append(groups[e.group])
        groups[e.group]["children"].append(item)
        groups[e.group]["current"] |= item["current"]
    return [g["children"][0] if g.get("children") and len(g["children"]) == 1 else g for g in out]


def home_for(user) -> str:
    """The URL name of `user`'s home."""
    for name in HOMES.get(getattr(user, "role", ""), ()) + FALLBACK_HOMES:
        if may_open(user, name) or name == "accounts:account":
            return name
    return "accounts:account"


def menu(request) -> dict:
    """Context processor: `menu` for base.html, worked out when a template first reads it. A fragment rendered
    with the request (each panel of the dashboard) runs every context processor and never shows the menu."""
    user = getattr(request, "user", None)
    return {"menu": SimpleLazyObject(lambda: menu_for(user, request.path)) if user is not None else []}
