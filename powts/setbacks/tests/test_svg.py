"""render_svg: a pure function returning well-formed SVG, north up, violations marked."""
import xml.etree.ElementTree as ET

from powts.setbacks import check_plan, parse_plan, render_svg, rules_for

from .plans import feature, pair_plan, square

NS = "{http://www.w3.org/2000/svg}"


def test_violations_are_marked_and_svg_is_well_formed():
    plan = parse_plan(pair_plan("dispersal_area", "lot_line", 4.99))
    result = check_plan(plan, rules_for("dane"))
    svg = render_svg(plan, result)
    root = ET.fromstring(svg)
    marks = [g for g in root.iter(f"{NS}g") if g.get("class") == "violation"]
    assert len(marks) == 1
    assert "4.99 ft &lt; 5 ft" in svg or "4.99 ft < 5 ft" in ET.tostring(marks[0], encoding="unicode")
    assert "1 setback violation(s)" in svg


def test_compliant_plan_has_no_marks():
    plan = parse_plan(pair_plan("dispersal_area", "lot_line", 5))
    svg = render_svg(plan, check_plan(plan, rules_for("dane")))
    assert 'class="violation"' not in svg and "complies" in svg


def test_names_are_escaped_and_north_is_up():
    plan = parse_plan({"type": "FeatureCollection", "features": [
        feature("well", {"type": "Point", "coordinates": [0, 100]}, name="<script>"),
        feature("dispersal_area", square(0, 0)),
    ]})
    svg = render_svg(plan)
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    root = ET.fromstring(svg)
    well = next(root.iter(f"{NS}circle"))
    path = next(root.iter(f"{NS}path"))
    assert float(well.get("cy")) < float(path.get("d").split()[1].split(",")[1])


def test_pure_same_input_same_output():
    plan = parse_plan(pair_plan("privy", "well", 10))
    result = check_plan(plan, rules_for("lincoln"))
    assert render_svg(plan, result) == render_svg(plan, result)
