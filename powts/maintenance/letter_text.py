"""The words of a maintenance notice, per language: powts/maintenance/letter_texts/<code>.yaml.

Why files per language rather than gettext catalogues: the letter is drawn with ReportLab, not a
template; it is a legal notice whose translation a county's translator reviews paragraph by
paragraph beside the English; gettext falls back to English, silently, for a message it lacks, which
here would mail a half-translated notice, while these files are checked whole (same keys, same
placeholders: test_letter_texts.py); and Django has no Hmong locale, while these need no build step.
"""
from __future__ import annotations

import datetime as dt
import functools
from pathlib import Path

import yaml

from powts.inventory.choices import LetterLanguage

TEXTS_DIR = Path(__file__).resolve().parent / "letter_texts"
ENGLISH = LetterLanguage.ENGLISH.value
CODES = tuple(LetterLanguage.values)


@functools.cache
def texts(code: str) -> dict:
    """The letter's words in `code` (English for a code powts has no translation for)."""
    if code not in CODES:
        code = ENGLISH
    with open(TEXTS_DIR / f"{code}.yaml", encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def long_date(code: str, day: dt.date) -> str:
    t = texts(code)
    return t["date"].format(month=t["months"][day.month - 1], day=day.day, year=day.year)
