"""The kernel runs without Django: one loader for every cited, dated file."""
import ast
from pathlib import Path

import powts.kernel

KERNEL = Path(powts.kernel.__file__).parent


def test_no_module_of_the_kernel_imports_django():
    offenders = []
    for path in KERNEL.rglob("*.py"):
        if "tests" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in {"django", "rest_framework"}
                          or n.startswith("powts.") and not n.startswith("powts.kernel")]
    assert offenders == []
