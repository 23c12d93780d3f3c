"""The documentation builds as a reader would build it: `mkdocs build` says nothing but what
it did (no theme's banner, no warning)."""

from __future__ import annotations

import sys
from pathlib import Path

from tests import processes

ROOT = Path(__file__).resolve().parents[1]


def test_the_docs_build_with_nothing_said_but_what_was_done(tmp_path):
    done = processes.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                          str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                         timeout=120)
    assert done.returncode == 0, done.stderr
    said = [line for line in (done.stdout + done.stderr).splitlines()
            if line.strip() and not line.startswith("INFO")]
    assert said == []
    assert (tmp_path / "site" / "index.html").is_file()
