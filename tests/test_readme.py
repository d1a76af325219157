"""The README's promises: the quick start names exactly the two make targets, and the Python
example runs as written."""

import re
import shlex
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_quick_start_has_the_two_commands():
    block = re.search(r"## Quick start\s+```sh\n(.*?)```", README, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]
    assert commands == ["make run", "make test"]
    ci = (Path(__file__).resolve().parent.parent / ".ci/run").read_text()
    assert "make test" in ci


def test_python_examples_run(official, capsys):
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert len(blocks) == 4
    exec(compile(blocks[0], "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    n, best = out[0].split()
    assert int(n) == 102 and best == "brond"
    assert "# 102 brond" in blocks[0]
    exec(compile(blocks[1], "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out == ["7920.0", "7920"]
    exec(compile(blocks[2], "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out == ["7920 3.4212"] and "# 7920 3.4212" in blocks[2]
    exec(compile(blocks[3], "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out == ["21.0 [5, 3, 7, 6]"] and "# 21.0 [5, 3, 7, 6]" in blocks[3]


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


def _examples():
    block = re.search(r"### Examples.*?```sh\n(.*?)```", README, re.S).group(1)
    out = []
    for line in block.splitlines():
        if not line.strip():
            continue
        command, _, comment = line.partition("  # ")
        out.append((command.strip(), [part.strip() for part in comment.split(" · ") if part.strip()]))
    return out


def test_every_shell_block_of_the_readme_is_run_by_a_test():
    blocks = re.findall(r"\n(#+ [^\n]*)(?:(?!\n#).)*?```sh\n", README, re.S)
    assert blocks == ["## Quick start", "### Examples", "### Decision trees"]


@pytest.mark.parametrize(
    "command,expected", _examples(), ids=[c.split()[1] + str(i) for i, (c, _) in enumerate(_examples())]
)
def test_examples_run_as_written(official, command, expected):
    """Each example of the README, word for word, through the command line: exit 0, no
    traceback, and the output holds what its comment promises."""
    from click.testing import CliRunner

    from wordlebot.cli import cli

    argv = shlex.split(command)
    assert argv[0] == "wordlebot"
    r = CliRunner().invoke(cli, argv[1:])
    assert r.exit_code == 0, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert "Traceback" not in r.output
    for fragment in expected:
        assert fragment in r.output, (fragment, r.output)
