"""The wheel's build_py (pyproject.toml: ``[tool.setuptools.cmdclass]``): after setuptools lays the
package out in the build folder, what can be made ahead of time is written into it, into
``ludoteca/generator/_prebuilt/`` (the compiled templates, the cairo binding, the cards' catalog), by the package's own
code (``python -m ludoteca.generator.prebuild``) run on that built tree, in a process of its own.

The build's environment holds jinja2, MarkupSafe, cffi, cairocffi and PyYAML at the lock's versions
(``[build-system] requires``, pinned in ``[tool.uv] build-constraint-dependencies``), the ones an
installation runs with.  If the step fails, the wheel is built without the folder: a first build
on a new machine is then slower, nothing else.  Editable installs skip it: scripts/setup.sh writes
the checkout's folder itself.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools.command.build_py import build_py


class BuildPy(build_py):
    """build_py, then the prebuilt folder written into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        built = os.path.abspath(self.build_lib)
        folder = Path(built) / "ludoteca" / "generator" / "_prebuilt"
        shutil.rmtree(folder, ignore_errors=True)       # an earlier build's, in a build folder used again
        with tempfile.TemporaryDirectory(prefix="ludoteca-prebuild-") as cache:
            # the built tree only (-P: not the current folder), no bytecode beside it (the wheel
            # holds none), and a cache folder of its own, not the user's
            env = dict(os.environ, PYTHONPATH=built, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=cache)
            done = subprocess.run([sys.executable, "-P", "-m", "ludoteca.generator.prebuild", str(folder)],
                                  cwd=built, env=env, capture_output=True, text=True)
        for line in done.stderr.splitlines()[-20:]:
            self.warn(line)
        if done.returncode != 0:
            self.warn("the prebuilt templates, cairo binding and catalog are left out of the wheel")
