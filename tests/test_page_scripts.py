"""The scripts the bot runs in pages (webbot/page_scripts/*.js): each parses as loaded, with
the scripts it uses handed in, and runs; none is left in a Python string."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import processes
from webbot.answer import evaluate
from webbot.page_scripts import page_script

ROOT = Path(__file__).resolve().parent.parent
NAMES = sorted(path.stem for path in (ROOT / "webbot" / "page_scripts").glob("*.js"))
# A function with a body of statements, written in a Python string.
STATEMENTS = re.compile(r"=>\s*\{|\bfunction\s*\w*\s*\(")


@pytest.mark.parametrize("name", NAMES)
def test_each_script_as_loaded_is_one_expression_node_parses(name, tmp_path):
    script = tmp_path / f"{name}.js"
    script.write_text(f"({page_script(name)}\n);\n")
    done = processes.run(["node", "--check", str(script)], timeout=60)
    assert done.returncode == 0, done.stderr


def test_no_page_script_with_statements_is_left_in_python():
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in (ROOT / "webbot").rglob("*.py")
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if STATEMENTS.search(line)]
    assert found == []


def test_a_script_gets_the_scripts_it_uses_handed_in(page):
    page.set_content('<div id="cmp" class="banner top wide">Cookies <button>No thanks'
                     '</button></div><input type="checkbox" name="A1" checked>'
                     '<input type="checkbox" name="A2">')
    assert evaluate(page.query_selector("div"), page_script("element_name")) \
        == "div#cmp.banner.top"  # (helpers.js)
    states = [evaluate(page.main_frame, page_script("tick_state"), [name, "div"])
              for name in ("A1", "A2", "A3")]  # (card_state.js)
    assert states == ["ticked", "unticked", "none"]
    assert evaluate(page.main_frame, page_script("any_showing"),
                    [page.query_selector("button")]) is True
