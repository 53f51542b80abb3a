"""Forms: the department adds a county; a county's administrator changes one of its settings.

Each settings form turns what was typed into the setting's stored value (`value`, plain JSON), naming the
field and the line of a bad entry; the service then checks the profile with it, as the shipped files are."""
from __future__ import annotations

import datetime as dt
import re

from django import forms

from powts.jurisdictions.county_settings import STEP_LABELS
from powts.kernel.money import parse_amount


class _Styled(forms.Form):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            widget = field.widget
            if isinstance(widget, forms.CheckboxInput):
                widget.attrs.setdefault("class", "usa-checkbox__input")
            elif isinstance(widget, forms.Textarea):
                widget.attrs.setdefault("class", "usa-textarea")
                widget.attrs.setdefault("rows", 4)
            elif not isinstance(widget, forms.HiddenInput):
                widget.attrs.setdefault("class", "usa-input")


class CountyAddForm(_Styled):
    name = forms.CharField(label="County", max_length=60, help_text="One of Wisconsin's 72 counties, written as NAME County")
    slug = forms.CharField(label="Short name (slug)", max_length=40,
                           help_text="Its name in lower case without the word County, words joined by hyphens, no dots")


class SettingForm(_Styled):
    """The fields every change has: where the county's rule is, and why (both kept with the change)."""

    citation = forms.CharField(label="Citation", max_length=255,
                               help_text="The county's ordinance section for this value, or \"county policy\"")
    reason = forms.CharField(label="Reason for the change", max_length=255, required=False)

    def value(self) -> dict:
        raise NotImplementedError

    @classmethod
    def initial_from(cls, current: dict) -> dict:
        return dict(current)


def _lines(text: str) -> list[tuple[int, str]]:
    return [(i, line.strip()) for i, line in enumerate((text or "").splitlines(), 1) if line.strip()]


class ContactForm(SettingForm):
    office = forms.CharField(label="Office", max_length=120)
    address = forms.CharField(label="Return address", widget=forms.Textarea,
                              help_text="As printed on letters, one line each: street, then city, state and ZIP code")
    phone = forms.CharField(label="Phone", max_length=40)
    email = forms.EmailField(label="E-mail", max_length=120)
    hours = forms.CharField(label="Office hours", max_length=120)
    field_order = ["office", "address", "phone", "email", "hours", "citation", "reason"]

    def clean_address(self):
        lines = [line for _, line in _lines(self.cleaned_data["address"])]
        if not 2 <= len(lines) <= 5:
            raise forms.ValidationError(f"the return address has {len(lines)} line(s); write 2 to 5 (street, then city, state and ZIP)")
        if not re.search(r"\b\d{5}(-\d{4})?$", lines[-1]):
            raise forms.ValidationError(f"the last line {lines[-1]!r} does not end with a ZIP code (e.g. Baraboo, WI 53913)")
        return lines

    def value(self) -> dict:
        return {k: self.cleaned_data[k] for k in ("office", "address", "phone", "email", "hours")}

    @classmethod
    def initial_from(cls, current: dict) -> dict:
        return {**current, "address": "\n".join(current.get("address") or [])}


class ClosuresForm(SettingForm):
    closures = forms.CharField(label="Closures", widget=forms.Textarea,
                               help_text="One a line: the date (YYYY-MM-DD), a space and the reason, e.g. 2027-01-02 Office closed. "
                                         "These replace the closures set here before.")
    field_order = ["closures", "citation", "reason"]

    def clean_closures(self):
        out, seen = [], set()
        for number, line in _lines(self.cleaned_data["closures"]):
            day, _, reason = line.partition(" ")
            try:
                date = dt.date.fromisoformat(day)
            except ValueError:
                raise forms.ValidationError(f"line {number}: {day!r} is not a date (YYYY-MM-DD)") from None
            if date in seen:
                raise forms.ValidationError(f"line {number}: {date} is listed twice")
            seen.add(date)
            out.append({"date": date.isoformat(), "reason": reason.strip() or "office closed"})
        return out

    def value(self) -> dict:
        return {"closures": self.cleaned_data["closures"]}

    @classmethod
    def initial_from(cls, current: dict) -> dict:
        return {**current, "closures": "\n".join(f"{c['date']} {c['reason']}" for c in current.get("closures") or [])}


class LeadTimeForm(SettingForm):
    days = forms.IntegerField(label="Days before the due date", help_text="The first notice reaches the owner this many days before the due date")
    field_order = ["days", "citation", "reason"]

    def value(self) -> dict:
        return {"days": self.cleaned_data["days"]}


class StepsForm(SettingForm):
    steps = forms.CharField(label="Steps", widget=forms.Textarea,
                            help_text="One a line, in order: the step, days after the due date, days after the step before; "
                                      "e.g. delinquent 30 30. Steps: " + ", ".join(STEP_LABELS))
    field_order = ["steps", "citation", "reason"]

    def clean_steps(self):
        out = []
        for number, line in _lines(self.cleaned_data["steps"]):
            parts = line.split()
            if len(parts) != 3:
                raise forms.ValidationError(f"line {number}: {line!r} needs three parts: the step, days after the due date, "
                                            "days after the step before")
            kind, due, previous = parts
            if kind not in STEP_LABELS:
                raise forms.ValidationError(f"line {number}: {kind!r} is not a step; steps: {', '.join(STEP_LABELS)}")
            try:
                out.append({"kind": kind, "days_after_due": int(due), "days_after_previous": int(previous)})
            except ValueError:
                raise forms.ValidationError(f"line {number}: {due!r} or {previous!r} is not a whole number of days") from None
        return out

    def value(self) -> dict:
        return {"steps": self.cleaned_data["steps"]}

    @classmethod
    def initial_from(cls, current: dict) -> dict:
        return {**current, "steps": "\n".join(f"{s['kind']} {s['days_after_due']} {s['days_after_previous']}" for s in current.get("steps") or [])}


class FeesForm(SettingForm):
    effective_from = forms.DateField(label="In force from", help_text="YYYY-MM-DD; the shipped schedule ends the day before",
                                     widget=forms.DateInput(attrs={"type": "date"}))
    effective_through = forms.DateField(label="In force through", required=False, help_text="YYYY-MM-DD; empty: until changed",
                                        widget=forms.DateInput(attrs={"type": "date"}))
    fees = forms.CharField(label="Fees", widget=forms.Textarea,
                           help_text="One a line: the fee's code; its name; the amount in dollars and cents. "
                                     "e.g. application; Sanitary permit application; 400.00")
    field_order = ["effective_from", "effective_through", "fees", "citation", "reason"]

    def clean_fees(self):
        out = {}
        for number, line in _lines(self.cleaned_data["fees"]):
            parts = [p.strip() for p in line.split(";")]
            if len(parts) != 3 or not parts[0] or not parts[1]:
                raise forms.ValidationError(f"line {number}: {line!r} needs the code; the name; the amount")
            code, label, amount = parts
            if not re.fullmatch(r"[a-z][a-z0-9_]*", code):
                raise forms.ValidationError(f"line {number}: code {code!r} is lower-case letters, digits and _")
            parsed = parse_amount(amount.removeprefix("$"))
            if parsed is None or parsed < 0:
                raise forms.ValidationError(f"line {number}: amount {amount!r} is not an amount in dollars and cents")
            if code in out:
                raise forms.ValidationError(f"line {number}: fee {code!r} is listed twice")
            out[code] = {"label": label, "amount": f"{parsed:.2f}"}
        if not out:
            raise forms.ValidationError("list at least one fee")
        return out

    def clean(self):
        data = super().clean()
        start, end = data.get("effective_from"), data.get("effective_through")
        if start and end and end < start:
            self.add_error("effective_through", f"{end} is before {start}")
        return data

    def value(self) -> dict:
        d = self.cleaned_data
        return {"effective_from": d["effective_from"].isoformat(),
                "effective_through": d["effective_through"].isoformat() if d.get("effective_through") else "",
                "fees": d["fees"]}

    @classmethod
    def initial_from(cls, current: dict) -> dict:
        return {**current, "fees": "\n".join(f"{code}; {f['label']}; {f['amount']}" for code, f in (current.get("fees") or {}).items())}


class ContractorsForm(SettingForm):
    any_system = forms.BooleanField(label="Any licensed contractor may report on any of the county's systems", required=False)
    filer_reads_system = forms.BooleanField(label="Filing a report lets the filer read the system, its owner and its history",
                                            required=False)
    field_order = ["any_system", "filer_reads_system", "citation", "reason"]

    def value(self) -> dict:
        return {"any_system": bool(self.cleaned_data["any_system"]), "filer_reads_system": bool(self.cleaned_data["filer_reads_system"])}


FORMS: dict[str, type[SettingForm]] = {
    "contact": ContactForm, "closures": ClosuresForm, "notice_lead_time": LeadTimeForm, "notice_steps": StepsForm,
    "fees": FeesForm, "contractors": ContractorsForm,
}
