"""The README's promises: the quick start names exactly the two make targets, and the Python
example runs as written."""

import re
from pathlib import Path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_quick_start_has_the_two_commands():
    block = re.search(r"## Quick start\s+```sh\n(.*?)```", README, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]
    assert commands == ["make run", "make test"]
    ci = (Path(__file__).resolve().parent.parent / ".ci/run").read_text()
    assert "make test" in ci


def test_python_example_runs(official, capsys):
    code = re.search(r"## Python API\s+```python\n(.*?)```", README, re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    n, best = out[0].split()
    assert int(n) == 102 and best == "brond"
    assert "# 102 brond" in code
