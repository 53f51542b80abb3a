"""Wis. Stat. s. 281.75(7)(c): each eligible cost item cites its subdivision; those the excerpt does not reproduce
(1. and 2.a.-c.) say so in the citation people read, "(text not reproduced here)", and those it has (2.d., 3.-5.)
are labelled in the text."""
import datetime as dt
import re
from pathlib import Path

import pytest

from powts.law.engine import default_parameters
from powts.law.wells import PROGRAM

TEXT = Path(__file__).resolve().parents[3].parent / "shared" / "law" / "wis-stat-281.69-281.75.txt"


def _items():
    return default_parameters().snapshot(PROGRAM, dt.date(2024, 1, 1))["eligible_cost_items"]


@pytest.mark.parametrize("item,sub", [("alternate_water_supply", "1."), ("reconstruct_well", "2.a."),
                                      ("new_well", "2.b."), ("connect_private_supply", "2.c.")])
def test_281_75_7_c_items_outside_the_excerpt_say_so(item, sub):
    assert _items()[item] == f"Wis. Stat. s. 281.75(7)(c){sub} (text not reproduced here)"
    if TEXT.is_file():
        assert not re.search(rf"^281\.75\(7\)\(c\){re.escape(sub)}", TEXT.read_text(encoding="utf-8"), re.MULTILINE)


@pytest.mark.parametrize("item,sub", [("public_water_supply", "2.d."), ("abandonment", "3."),
                                      ("contamination_tests", "4."), ("pump", "5.")])
def test_281_75_7_c_items_in_the_excerpt_cite_it_plainly(item, sub):
    assert _items()[item] == f"Wis. Stat. s. 281.75(7)(c){sub}"
    if not TEXT.is_file():
        pytest.skip(f"the law texts are not beside this checkout ({TEXT})")
    assert re.search(rf"^281\.75\(7\)\(c\){re.escape(sub)}", TEXT.read_text(encoding="utf-8"), re.MULTILINE)
