"""The table a Puzlogic run ends with says what it set out to do, stopped early or not."""

from __future__ import annotations

from webbot.puzlogic.bot import LevelResult
from webbot.puzlogic.cli import results_table


def done(level: int, result: str = "completed", unlocking: bool = False) -> LevelResult:
    return LevelResult(level, pieces=3, result=result, unlocking=unlocking)


def test_a_run_stopped_early_says_how_many_of_the_levels_asked_for_it_did_not_reach():
    results = [*(done(n) for n in range(1, 6)), done(6, "interrupted")]
    title = str(results_table(results, 30.0, asked=15).title)
    assert title == ("Puzlogic: 5 of 6 levels completed in 30.0 s (9 of the 15 this run set out "
                     "to play not reached)")


def test_a_whole_run_and_the_levels_it_unlocked_on_the_way_say_nothing_of_it():
    results = [done(1, unlocking=True), done(2, unlocking=True), done(3)]
    assert str(results_table(results, 9.0, asked=1).title) == \
        "Puzlogic: 3 of 3 levels completed in 9.0 s"
