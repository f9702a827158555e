"""The Python loops of the README's "From Python" section run as written."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT


def readme_examples() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## From Python", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_readme_has_the_three_faces():
    assert len(readme_examples()) == 3


@pytest.mark.parametrize("index", range(3), ids=["pettingzoo", "gymnasium", "vector"])
def test_readme_example_runs(index):
    exec(compile(readme_examples()[index], f"README.md example {index + 1}", "exec"), {"__name__": "__readme__"})
