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


def test_python_examples_run(official, capsys):
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert len(blocks) == 2
    exec(compile(blocks[0], "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    n, best = out[0].split()
    assert int(n) == 102 and best == "brond"
    assert "# 102 brond" in blocks[0]
    exec(compile(blocks[1], "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out == ["7920.0", "7920"]


def test_shell_example_runs(official, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from wordlebot.cli import cli

    block = re.search(r"### Decision trees.*?```sh\n(.*?)```", README, re.S).group(1)
    commands = [line.split("#")[0].split() for line in block.splitlines() if line.strip()]
    assert [c[:2] for c in commands] == [["wordlebot", "tree"], ["wordlebot", "verify-tree"]]
    monkeypatch.chdir(tmp_path)
    outputs = [CliRunner().invoke(cli, c[1:], catch_exceptions=False) for c in commands]
    assert all(r.exit_code == 0 for r in outputs), [r.output for r in outputs]
    assert "total 7,920" in outputs[0].output and "max 5" in outputs[0].output
    assert outputs[1].output.startswith("OK") and "total 7,920" in outputs[1].output
