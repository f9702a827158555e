"""The Python loops of the documents run as written: docs/python.md's "Three loops" and the README's "From Python"."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT


def python_blocks(document: str, heading: str) -> list[str]:
    text = (ROOT / document).read_text()
    section = text.split(heading + "\n", 1)[1].split("\n#", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def guide_examples() -> list[str]:
    return python_blocks("docs/python.md", "## Three loops")


def test_the_guide_has_the_three_faces_and_the_readme_one():
    assert len(guide_examples()) == 3
    assert len(python_blocks("README.md", "### From Python")) == 1


@pytest.mark.parametrize("index", range(3), ids=["pettingzoo", "gymnasium", "vector"])
def test_guide_example_runs(index):
    exec(compile(guide_examples()[index], f"docs/python.md example {index + 1}", "exec"), {"__name__": "__guide__"})


def test_readme_example_runs():
    (code,) = python_blocks("README.md", "### From Python")
    exec(compile(code, "README.md example", "exec"), {"__name__": "__readme__"})


def test_the_train_extra_is_installed_after_torch_cpu_build():
    """docs/python.md installs torch's CPU build before the train extra, which alone pulls the CUDA build."""
    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / "docs" / "python.md").read_text(), re.S)
    (block,) = [b for b in blocks if "[train]" in b]
    cpu = block.index("pip install torch --index-url https://download.pytorch.org/whl/cpu")
    assert cpu < block.index("[train]")


def test_the_vector_example_draws_from_the_legal_ids_not_a_float_per_action():
    vector = guide_examples()[2]
    assert "sample_legal_actions" in vector and "np.random.random(masks.shape)" not in vector
