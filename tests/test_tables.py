"""Tables are never cut: printed to a pipe or a file the console is as wide as its tables (rich
alone would take 80 columns and end the cells, headers too, in "…"), on a narrow terminal the
cells fold onto more lines, and the --report page and the soak's page hold them whole."""

from __future__ import annotations

import io
import re

import pytest

from webbot.shown import WIDE, Table, TextConsole

LONG = "/work/main/webbot/consent/node_modules/@duckduckgo/autoconsent" * 2
HEADERS = ("games", "passed", "failed", "retried", "pages recovered", "s/game p50",
           "s/game p95", "games/min", "workers", "workers lost")


def wide_table() -> Table:
    table = Table(*HEADERS, title="soak of puzlogic: 100 games in 600 s")
    table.add_row(*(str(n) for n in range(len(HEADERS))))
    table.add_row(LONG, *[""] * (len(HEADERS) - 1))
    return table


def rows(text: str) -> list[list[str]]:
    """Each line of a table's body, its cells stripped."""
    return [[cell.strip() for cell in line.strip("┃│").split(line[0])]
            for line in text.splitlines() if line[:1] in "┃│"]


def test_printed_to_a_pipe_a_table_keeps_a_row_a_line(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    console = TextConsole(file=io.StringIO())
    assert not console.is_terminal and console.width == WIDE
    console.print(wide_table())
    text = console.file.getvalue()
    assert "…" not in text
    assert rows(text) == [list(HEADERS), [str(n) for n in range(len(HEADERS))],
                          [LONG, *[""] * (len(HEADERS) - 1)]]


def test_columns_set_by_the_user_is_honoured_and_cells_fold(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    console = TextConsole(file=io.StringIO())
    assert console.width == 60
    console.print(wide_table())
    text = console.file.getvalue()
    assert "…" not in text and max(map(len, text.splitlines())) <= 60
    # every header and the long cell are all there, folded onto more lines
    folded = "".join("".join(row[0] for row in rows(text)))
    assert LONG in folded and "games" in folded


@pytest.mark.parametrize("width", [80, 40])
def test_on_a_narrow_terminal_cells_fold_never_end_in_an_ellipsis(width):
    console = TextConsole(file=io.StringIO(), width=width, force_terminal=True,
                          color_system=None)
    console.print(wide_table())
    text = console.file.getvalue()
    assert "…" not in text
    column = [row[1] for row in rows(text)]  # "passed", folded if need be, then its figures
    assert "".join(column).startswith("passed1")


def test_the_report_holds_the_table_whole(tmp_path, monkeypatch):
    from webbot import commands
    from webbot.report import RunReport

    monkeypatch.delenv("COLUMNS", raising=False)  # (pytest-xdist sets 80)
    monkeypatch.setattr(commands, "console", TextConsole(file=io.StringIO()))
    report = RunReport(tmp_path / "report.html")
    commands.reported(report, lambda: commands.console.print(wide_table()))
    page = report.path.read_text()
    assert "…" not in page
    assert re.search(r"┃ games +┃ passed +┃ failed +┃ retried +┃ pages recovered +┃", page)
    assert LONG in page


def test_the_soak_page_holds_its_tables_whole_whatever_the_terminal(tmp_path, monkeypatch):
    from webbot.soak.cli import _report
    from webbot.soak.games import Played, make_case
    from webbot.soak.pages import SoakPages
    from webbot.soak.runner import GameRecord, Plan, SoakResult, Try

    monkeypatch.delenv("COLUMNS", raising=False)
    terminal = TextConsole(file=io.StringIO(), width=80, force_terminal=True, color_system=None)
    pages = SoakPages(tmp_path / "soak.html", "webbot soak puzlogic --count 1")
    played = GameRecord(make_case("puzlogic", 0, 0), [Try("w1", Played(True, 1.5, ""))])
    _report(Plan("puzlogic", count=1), SoakResult(records=[played], seconds=1.0), terminal,
            pages)
    assert "…" not in terminal.file.getvalue()
    page = pages.path.read_text()
    assert "…" not in page
    assert re.search(r"┃ games +┃ passed +┃ failed +┃ retried +┃ pages recovered +┃ "
                     r"s/game p50 +┃ s/game p95 +┃ games/min +┃ workers +┃ workers lost +┃", page)


def test_every_table_is_one_that_folds():
    from pathlib import Path

    import webbot

    direct = [path.name for path in Path(webbot.__file__).parent.rglob("*.py")
              if "from rich.table import" in path.read_text(encoding="utf-8")]
    assert direct == [], "use webbot.shown.Table, whose cells fold"


TITLE = ("Burrito Bison: 1 round in 31.2 s (50.3 decisions/s, 9 ms from a picture to a "
         "decision) (1 page recovered)")


@pytest.mark.parametrize(("width", "lines"), [
    (None, [TITLE]),
    (80, ["Burrito Bison: 1 round in 31.2 s",
          "(50.3 decisions/s, 9 ms from a picture to a decision) (1 page recovered)"]),
    (60, ["Burrito Bison: 1 round in 31.2 s",
          "(50.3 decisions/s, 9 ms from a picture to a decision)", "(1 page recovered)"]),
])
def test_a_title_breaks_between_its_phrases_not_at_the_table_s_width(width, lines,
                                                                     monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    console = TextConsole(file=io.StringIO(), width=width, force_terminal=width is not None,
                          color_system=None)
    table = Table("round", "coins", title=TITLE)  # a table far narrower than its title
    table.add_row("1", "56")
    console.print(table)
    printed = console.file.getvalue().splitlines()
    assert [line.rstrip() for line in printed[:len(lines)]] == lines
    assert printed[len(lines)].startswith("┏")


def test_a_title_is_shown_as_text_like_every_cell():
    console = TextConsole(file=io.StringIO())
    console.print(Table("a", title="[bold]x[/bold] \x1b[2J (y)"))
    assert console.file.getvalue().splitlines()[0] == "[bold]x[/bold] \u241b[2J (y)"
