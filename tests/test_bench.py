"""The benchmarks still run (small versions of them) and find no wrong answer."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests import processes
from webbot.browser import HEADLESS_SHELL

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_solvers.py"


def test_bench_solvers_prints_a_table():
    result = processes.run([sys.executable, str(SCRIPT), "--instances", "1", "--sizes", "5",
                            "--timeout", "20"], timeout=300)
    assert result.returncode == 0, result.stderr
    table = [line for line in result.stdout.splitlines() if line.startswith("| 5x5")]
    assert len(table) == 1 and "WRONG" not in table[0] and "x faster" in table[0]


def test_bench_breakdown_splits_a_command_into_parts_that_add_up_each_said_whose():
    script = SCRIPT.with_name("bench_breakdown.py")
    result = processes.run([sys.executable, str(script), "--games", "daily-set"], timeout=300)
    assert result.returncode == 0, result.stderr
    total = float(re.search(r"`webbot daily-set --fresh`, ([0-9.]+) s as a process",
                            result.stdout)[1])
    rows = {cells[0]: cells[1:] for cells in (
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in result.stdout.splitlines() if line.startswith("| ")) if cells[0] != "part"}
    assert {"process start", "browser start", "page load", "acting", "the page's answers",
            "closing", "process end"} <= set(rows)
    assert rows["page load"][0] == rows["the page's answers"][0] == "the game's"
    assert rows["browser start"][0] == rows["acting"][0] == "ours"
    assert rows["page load"][3] and rows["acting"][3]  # beside them, the floor's parts
    # (each shown to the ms, the total to 10 ms, parts under half a ms left out)
    assert abs(sum(float(cells[1]) for cells in rows.values()) - total) < 0.05


@pytest.mark.full  # (CI runs the Daily SET's: one benchmark's smoke test of the kind)
def test_bench_puzlogic_prints_a_table():
    script = SCRIPT.with_name("bench_puzlogic.py")
    result = processes.run([sys.executable, str(script), "--quick", "--frames", "1", "--no-run"],
                           timeout=600)
    assert result.returncode == 0, result.stderr
    row = next(line for line in result.stdout.splitlines()
               if line.startswith("| bundled levels dpr 1"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    right, total = map(int, cells[5].split("/"))
    assert right == total > 0 and cells[-1].endswith("x faster")


@pytest.mark.full  # (CI's time; the benchmark itself is run for the docs)
def test_bench_daily_set_prints_tables():
    script = SCRIPT.with_name("bench_daily_set.py")
    result = processes.run([sys.executable, str(script), "--quick"], timeout=600)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| replica")]
    assert len(rows) == 2 and all("| 12/12 |" in row and "x faster" in row for row in rows)
    play = next(line for line in result.stdout.splitlines() if line.startswith("| bot (mouse"))
    assert "| 1/1 |" in play


@pytest.mark.full  # (CI runs the Daily SET's: one benchmark's smoke test of the kind)
def test_bench_burrito_bison_prints_tables():
    script = SCRIPT.with_name("bench_burrito_bison.py")
    result = processes.run([sys.executable, str(script), "--quick"], timeout=600)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| replica at")]
    assert len(rows) == 2 and all(row.count("| 8/8 |") >= 2 for row in rows)
    assert all("x faster" in row for row in rows)


@pytest.mark.full  # (CI runs the Daily SET's: one benchmark's smoke test of the kind)
def test_bench_portal_prints_a_table():
    script = SCRIPT.with_name("bench_portal.py")
    result = processes.run([sys.executable, str(script), "--quick"], timeout=600)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| puzlogic")]
    assert len(rows) == 4 and rows[0].endswith("| 1.0x |  |")
    assert "own (before the engine)" in rows[1] and "autoconsent" in rows[2]
    assert rows[2].split("|")[-2].strip().startswith(("+", "-"))  # the engine's cost


@pytest.mark.full  # (CI's time: it checks an earlier commit out and times each command)
def test_bench_startup_prints_its_tables():
    script = SCRIPT.with_name("bench_startup.py")
    result = processes.run([sys.executable, str(script), "--repeat", "1"], timeout=600)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| `webbot ")]
    assert len(rows) == 8 and all(row.endswith("as fast |") for row in rows[:-1])
    assert "| what the command adds |" in result.stdout


@pytest.mark.skipif(not Path(HEADLESS_SHELL).exists(),
                    reason="Debian's chromium-headless-shell")
def test_bench_browser_start_prints_its_table():
    script = SCRIPT.with_name("bench_browser_start.py")
    result = processes.run([sys.executable, str(script), "--repeat", "1"], timeout=300)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith(("| Chromium",
                                                                             "| its headless"))]
    assert len(rows) == 4 and all(re.search(r"\| \d+\.\d\dx \|$", row) for row in rows)
    assert "| with its compile cache kept |" in result.stdout
    flags = [line for line in result.stdout.splitlines() if line.startswith("| --")]
    assert "| the bot's flags alone |" in result.stdout and len(flags) >= 4
    assert all(line.endswith("x as fast |") for line in flags)


@pytest.mark.full  # (CI's time: two Burrito Bison rounds played as processes)
def test_bench_debug_dir_prints_its_table():
    script = SCRIPT.with_name("bench_debug_dir.py")
    result = processes.run([sys.executable, str(script), "--pairs", "1"], timeout=900)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| with")]
    assert len(rows) == 2 and "x (goal >= 0.9x: " in rows[1]


def test_suite_cpu_lists_each_test_s_machine_cpu_by_file():
    script = SCRIPT.with_name("suite_cpu.py")
    result = processes.run([sys.executable, str(script), "tests/test_tables.py", "--top", "2",
                            "--by-process"], timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "CPU seconds" in result.stdout
    assert "| file | tests | CPU s | share | wall s |" in result.stdout
    [row] = [line for line in result.stdout.splitlines()
             if line.startswith("| tests/test_tables.py | ")]
    assert float(row.split("|")[3]) >= 0
    assert result.stdout.count("| tests/test_tables.py::") == 2  # the costliest two
    # --by-process: the CPU by kind of process, the test process's own among them
    assert "| process | CPU s | share |" in result.stdout
    assert re.search(r"^\| the test process \| \d+\.\d \| ", result.stdout, re.M)
