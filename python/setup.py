"""The wheel carries its engine: the checkout's dist/python-engine/ (the bridge bundled into one
JavaScript file by esbuild, the shipped models, the wasm binaries; made by `npm run python:engine`,
scripts/pythonEngine.ts), copied into yaniv_arena/_engine/. `npm run python:wheel` makes both;
`pip wheel python/` or `python -m build --wheel python/` after `npm run python:engine` do too.
Editable installs (`pip install -e python`) carry nothing: they run the checkout's dist/bridge/.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ENGINE = Path(__file__).resolve().parent.parent / "dist" / "python-engine"


class BuildWithEngine(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        if not (ENGINE / "bridge.mjs").is_file():
            raise SystemExit(
                f"the wheel carries the engine, {ENGINE}, which is not built: run `npm run python:engine` "
                "in the yaniv-arena checkout first (or make the wheel with `npm run python:wheel`)"
            )
        shutil.copytree(ENGINE, Path(self.build_lib) / "yaniv_arena" / "_engine", dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildWithEngine})
