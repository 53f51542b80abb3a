"""Each fiscal year cites the grant program in the numbering of the version in force for it: s. 145.245 (before
2023 Wisconsin Act 19: application (8)(a), conditions (9)) or s. 145.246 (application (7)(a), conditions (8)).
Every number cited is checked against its own text: the subsection the number labels there says what the
citation is for. A rule of s. 145.245 that its excerpt does not reproduce is cited saying so in plain words, with
the s. 145.246 subsection that recreated it."""
import re
from pathlib import Path

import pytest

from powts.grants import program_year

TEXTS = Path(__file__).resolve().parents[3].parent / "shared" / "law"
PRE_ACT_19 = "wis-stat-145.20-145.245.txt"
ACT_19 = "2023-sb70-ssa2-sections-400-414.txt"

# What each citation is for, as words of the subsection (or each paragraph of a range) it names.
S_145_245 = {
    "application": [("(8)(a)", "shall submit an application for participation to the department")],
    "conditions": [("(9)", "Conditions; governmental units")],
    "certify_eligibility": [("(9)(b)", "owned by a person who meets the eligibility requirements")],
    "certify_installed": [("(9)(c)", "will be properly installed and maintained")],
    "certify_disbursed": [("(9)(d)", "will be disbursed to eligible owners")],
    "regulation_inspection": [("(9)(e)", "Establish a process for regulation and inspection")],
}
S_145_246 = {
    "application": [("(7)(a)", "shall submit an application for participation to the department")],
    "conditions": [("(8)", "Conditions; governmental units")],
    "maintenance_program": [("(8)(a)", "Adopt and administer the maintenance program established under s.")],
    "certify_eligibility": [("(8)(b)", "owned by a person who meets the eligibility requirements")],
    "certify_installed": [("(8)(c)", "will be properly installed and maintained")],
    "certify_disbursed": [("(8)(d)", "will be disbursed to eligible owners")],
    "regulation_inspection": [("(8)(e)", "Establish a process for regulation and inspection")],
    "distribution": [("(8)(g)", "provides for the distribution of grant funds")],
    "determination": [("(11)(a)", "Determination of eligible applications")],
    "allocation": [("(11)(b)", "Allocation. The department shall allocate available funds"),
                   ("(11)(c)", "Limitation; commercial establishments"),
                   ("(11)(d)", "Limitation; experimental private on-site")],
    "prorating": [("(12)", "Prorating")],
    "review": [("(13)(a)", "shall review applications for participation in the state program")],
    "payment": [("(13)(b)", "define payment mechanisms to be used to disburse grants")],
}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u201c", '"').replace("\u201d", '"')).strip()


def _need_texts():
    if not TEXTS.is_dir():
        pytest.skip(f"the law texts are not beside this checkout ({TEXTS}); CI has them at ../shared/law")


def labelled(act: str, label: str) -> str:
    """The text the pre-Act 19 excerpt labels `act``label` ("145.245", "(9)(b)"): from the line that starts with
    the label to the next labelled line; "" where the excerpt has no such label."""
    lines = (TEXTS / PRE_ACT_19).read_text(encoding="utf-8").splitlines()
    head = act + label
    last = re.findall(r"\(\w+\)", label)[-1]
    for i, line in enumerate(lines):
        rest = line[len(head):]
        if line.startswith(head) and (not rest or rest.startswith((" ", last))):
            out = [rest]
            for nxt in lines[i + 1:]:
                if re.match(r"^\d{3}\.\d+(\(| )", nxt):
                    break
                out.append(nxt)
            return _norm(" ".join(out))
    return ""


def _act_19_section() -> str:
    text = (TEXTS / ACT_19).read_text(encoding="utf-8")
    text = text[text.index("145.246 Private on-site wastewater treatment system replacement"):]
    # bill markers ("SB70-SSA2,355,14"), then the line numbers glued to each line's first word ("6mechanisms")
    lines = (re.sub(r"SB70-SSA2,\d+(,\d+)?", " ", line).strip() for line in text.splitlines())
    return _norm(" ".join(re.sub(r"^\d{1,2}(?=[A-Za-z(])", "", line) for line in lines))


def _heading(n: str) -> re.Pattern:
    return re.compile(rf"(?<![\w.])\({n}\) [A-Z]")


def created(label: str) -> str:
    """The text of s. 145.246 that `label` ("(8)(g)", "(12)") names, as Act 19 created it."""
    section = _act_19_section()
    parts = re.findall(r"\((\w+)\)", label)
    sub = _heading(parts[0]).search(section)
    assert sub, f"s. 145.246 has no subsection ({parts[0]})"
    nxt = _heading(str(int(parts[0]) + 1)).search(section, sub.end())
    body = section[sub.start():nxt.start() if nxt else len(section)]
    if len(parts) == 1:
        return body
    par = re.search(rf"\({parts[1]}\) [A-Z]", body)
    assert par, f"s. 145.246({parts[0]}) has no paragraph ({parts[1]})"
    after = re.search(rf"\({chr(ord(parts[1]) + 1)}\) [A-Z]", body[par.end():])
    return body[par.start():par.end() + after.start() if after else len(body)]


@pytest.mark.parametrize("what", sorted(S_145_245))
def test_s_145_245_years_cite_the_pre_act_19_numbering(what):
    """The 2020-21 fiscal year (s. 145.245 in force) cites s. 145.245's own subsection, and that subsection of the
    excerpt says what the citation is for (e.g. the conditions are (9), not (8), which is the application)."""
    _need_texts()
    fy = program_year.parse("2020-21")
    assert fy.version == "145.245"
    (label, words), = S_145_245[what]
    assert fy.cite(what) == f"Wis. Stat. s. 145.245{label}"
    assert _norm(words) in labelled("145.245", label), f"s. 145.245{label} does not say {words!r}"


@pytest.mark.parametrize("what", sorted(S_145_246))
def test_s_145_246_years_cite_the_act_19_numbering(what):
    """The 2026-27 fiscal year (s. 145.246 in force) cites s. 145.246's own subsections, each checked against
    the section as Act 19 created it."""
    _need_texts()
    fy = program_year.parse("2026-27")
    assert fy.version == "145.246"
    labels = S_145_246[what]
    cited = fy.cite(what)
    assert cited.startswith("Wis. Stat. s. 145.246(")
    for label, words in labels:
        assert _norm(words) in created(label), f"s. 145.246{label} does not say {words!r}"
    first, last = labels[0][0], labels[-1][0]
    assert cited == f"Wis. Stat. s. 145.246{first}" + ("" if first == last else f"-{last[-3:]}")


def test_s_145_245_maintenance_program_condition_is_cited_to_145_20_5_am():
    """s. 145.245(9)(a) is not in the excerpt; the pre-Act 19 s. 145.20(5)(am) is, and it makes the maintenance
    program's deadlines a condition of grant funding under s. 145.245."""
    _need_texts()
    assert program_year.parse("2020-21").cite("maintenance_program") == "Wis. Stat. s. 145.20(5)(am)"
    assert labelled("145.245", "(9)(a)") == ""
    assert ("In order to be eligible for grant funding under s. 145.245, a governmental unit must comply with these "
            "deadlines") in labelled("145.20", "(5)(am)")


@pytest.mark.parametrize("what", ["distribution", "determination", "allocation", "prorating", "review", "payment"])
def test_s_145_245_rules_the_excerpt_lacks_say_so_and_name_their_s_145_246_subsection(what):
    """The excerpt of s. 145.245 ends at (9)(e): its allocation, prorating, review and payment rules are not
    reproduced, so no s. 145.245 subsection number is made up for them; the citation says so in plain words and
    names the s. 145.246 subsection that recreated the rule."""
    _need_texts()
    cited = program_year.parse("2020-21").cite(what)
    recreated = program_year.SUBSECTIONS["145.246"][what]
    assert cited == f"Wis. Stat. s. 145.245 (text not reproduced here; recreated as s. 145.246{recreated})"
    assert "excerpt" not in cited and "not in" not in cited
    text = (TEXTS / PRE_ACT_19).read_text(encoding="utf-8")
    for sub in ("(9)(g)", "(11)", "(12)", "(13)"):
        assert not re.search(rf"^145\.245{re.escape(sub)}", text, re.MULTILINE)


def test_a_version_without_known_subsections_is_an_error_not_another_versions_numbers():
    with pytest.raises(ValueError, match="145.999"):
        program_year.cite("145.999", "conditions")


def test_the_county_page_cites_the_numbering_of_the_year_shown(client, dane, make_user):
    """A county's page for 2020-21 shows s. 145.245(9) for the conditions; for 2026-27, s. 145.246(8)."""
    client.force_login(make_user("cas", "county_staff", dane))
    old = client.get("/grants/program/county/?fiscal_year=2020-21").content.decode()
    assert "Wis. Stat. s. 145.245(9)" in old and "145.246(8)" not in old
    assert "Wis. Stat. s. 145.245(8)(a)" in old  # the application deadline
    new = client.get("/grants/program/county/?fiscal_year=2026-27").content.decode()
    assert "Wis. Stat. s. 145.246(8)" in new and "145.245" not in new
