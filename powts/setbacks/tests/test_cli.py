"""`powts setbacks check`: exit 0 complies, 1 does not, 2 bad input; --json and --svg."""
import json
from pathlib import Path

import pytest

from powts.cli import main as powts_main
from powts.setbacks.cli import main

from .plans import pair_plan

SAMPLE = str(Path(__file__).parent / "sample_plan.geojson")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def failing_plan(tmp_path):
    path = tmp_path / "plan.geojson"
    path.write_text(json.dumps(pair_plan("dispersal_area", "lot_line", 4.99)))
    return str(path)


def test_sample_plan_complies_exit_0(capsys):
    code, out, err = run(capsys, "check", SAMPLE, "--jurisdiction", "dane")
    assert code == 0 and "complies" in out and err == ""


def test_dispatched_from_the_powts_command(capsys):
    assert powts_main(["setbacks", "check", SAMPLE, "--jurisdiction", "lincoln"]) == 0


def test_violation_exit_1_readable(capsys, failing_plan):
    code, out, _ = run(capsys, "check", failing_plan, "--jurisdiction", "dane")
    assert code == 1
    assert ('#1 dispersal_area "the dispersal_area" is 4.99 ft from #0 lot_line "the lot_line"; '
            "at least 5 ft required [Dane County Code s. 46.10(6)]") in out


def test_json_output(capsys, failing_plan):
    code, out, _ = run(capsys, "check", failing_plan, "--jurisdiction", "dane", "--json")
    assert code == 1
    assert json.loads(out) == {"complies": False, "violations": [{
        "feature": '#1 dispersal_area "the dispersal_area"', "other": '#0 lot_line "the lot_line"',
        "measured_ft": 4.99, "required_ft": 5.0, "citation": "Dane County Code s. 46.10(6)"}]}


def test_json_compliant(capsys):
    code, out, _ = run(capsys, "check", SAMPLE, "--jurisdiction", "dane", "--json")
    assert code == 0 and json.loads(out) == {"complies": True, "violations": []}


def test_svg_written(capsys, failing_plan, tmp_path):
    out_svg = tmp_path / "plan.svg"
    code, _, _ = run(capsys, "check", failing_plan, "--jurisdiction", "dane", "--svg", str(out_svg))
    assert code == 1 and 'class="violation"' in out_svg.read_text()


@pytest.mark.parametrize("content, message", [
    (None, "cannot read"),
    ("{not json", "not valid JSON"),
    ('{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"kind": "x", "name": "A"},'
     ' "geometry": null}]}', 'feature #0 "A": unknown kind'),
])
def test_bad_input_exit_2(capsys, tmp_path, content, message):
    path = tmp_path / "bad.geojson"
    if content is not None:
        path.write_text(content)
    code, out, err = run(capsys, "check", str(path), "--jurisdiction", "dane")
    assert code == 2 and out == "" and message in err and "Traceback" not in err


def test_unknown_jurisdiction_exit_2(capsys):
    code, _, err = run(capsys, "check", SAMPLE, "--jurisdiction", "nowhere")
    assert code == 2 and "unknown jurisdiction 'nowhere'" in err


def test_usage_error_exit_2(capsys):
    code, _, err = run(capsys, "check", SAMPLE)
    assert code == 2 and "--jurisdiction" in err
