"""The Puzlogic policy, without a browser: levels in order through the ones that unlock them,
pieces placed one by one, drops tried again, restarts, and readings not trusted until they
have exactly one solution."""

from __future__ import annotations

from dataclasses import replace

import pytest

from webbot.errors import WebbotError
from webbot.puzlogic.decide import DROP_TRIES, RESTARTS, Action, Kind, Player
from webbot.puzlogic.model import (
    LevelButton,
    LevelView,
    Observation,
    Piece,
    Placement,
    Puzzle,
    SeenPiece,
    Spot,
    Sum,
    UnreadableScreen,
)

CELLS = {(0, 0): None, (0, 1): None}
PUZZLE = Puzzle(CELLS, (Piece(1, "white"), Piece(2, "white")), (Sum("row", 0, 3),))
PLAN = (Placement(0, 0, 1, "white"), Placement(0, 1, 2, "white"))
SPOTS = {(0, 0): Spot(5, 3), (0, 1): Spot(6, 3)}


def level(number: int, placed: tuple[Placement, ...] = (), *, red: bool = False,
          puzzle: Puzzle | None = None) -> Observation:
    on_board = {p.cell: SeenPiece(p.value, p.color, SPOTS[p.cell]) for p in placed}
    tray = [SeenPiece(p.value, p.color, Spot(5 + i, 8)) for i, p in enumerate(PLAN)
            if p not in placed]
    view = LevelView(dict(CELLS), SPOTS, on_board, tray, [], red, number)
    return Observation(None, None, "level", view, puzzle)  # type: ignore[arg-type]


def select(*unlocked: int) -> Observation:
    buttons = [LevelButton(n, (100.0 * n, 200.0), n in unlocked, False) for n in range(1, 6)]
    return Observation(None, None, "select", buttons=buttons)  # type: ignore[arg-type]


COMPLETED = Observation(None, None, "completed")  # type: ignore[arg-type]


def solving(*answers: list) -> tuple[list[Puzzle], object]:
    """A solver that answers in turn (the last answer again and again), and what it was
    asked."""
    asked: list[Puzzle] = []

    def solve(puzzle: Puzzle) -> list:
        asked.append(puzzle)
        return answers[min(len(asked), len(answers)) - 1]

    return asked, solve


def test_each_wanted_level_is_opened_solved_and_placed_piece_by_piece():
    asked, solve = solving([PLAN])
    player = Player([1, 2], solve)
    assert player(select(1, 2)) == Action(Kind.OPEN, 1)
    assert player(level(1)) == Action(Kind.REREAD, 1)  # a look at it: now read it twice alike
    assert player(level(1, puzzle=PUZZLE)) == Action(Kind.PLACE, 1, PLAN[0])
    assert player(level(1, PLAN[:1])) == Action(Kind.PLACE, 1, PLAN[1], last=True)
    assert player(COMPLETED) == Action(Kind.OPEN, 2)
    assert player(level(2, puzzle=PUZZLE)).kind is Kind.PLACE
    assert player(level(2, PLAN[:1])).last
    assert player(COMPLETED) is None
    assert asked == [PUZZLE, PUZZLE] and player.completed == {1, 2}


def test_what_solving_cost_goes_with_the_action_it_decided():
    """The policy keeps no one else's records: what its solving cost rides on its action."""
    player = Player([1], solving([PLAN])[1])
    assert player(select(1)).solved is None
    assert player(level(1)).solved is None  # nothing to solve yet
    placing = player(level(1, puzzle=PUZZLE))
    assert placing.solved is not None and placing.solved.ms >= 0
    assert (placing.solved.pieces, placing.solved.solution) == (2, PLAN)
    assert player(level(1, PLAN[:1])).solved is None  # solved once


def finished(*numbers: int) -> Observation:
    """The level select with levels 1-5 open, `numbers` shown as finished."""
    buttons = [LevelButton(n, (100.0 * n, 200.0), True, n in numbers) for n in range(1, 6)]
    return Observation(None, None, "select", buttons=buttons)  # type: ignore[arg-type]


def test_without_wanted_levels_it_reads_the_level_select_and_plays_those_not_finished():
    said: list[str] = []
    player = Player(None, solving([PLAN])[1], said=said.append)
    assert player(level(3)) == Action(Kind.OPEN, 0)  # on the way to the level select
    assert player(finished(1, 2)) == Action(Kind.OPEN, 3)  # (the open read its buttons)
    assert player.wanted == [3, 4, 5] and player.before == {1, 2}
    assert said == ["2 levels done before this run (kept in the profile): playing the 3 not done"]


def test_without_wanted_levels_a_level_select_read_with_no_button_ends_the_run():
    player = Player(None, solving([PLAN])[1])
    unread = Observation(None, None, "select")  # type: ignore[arg-type]
    assert player(unread) == Action(Kind.OPEN, 0)
    with pytest.raises(UnreadableScreen, match="shows no level's button"):
        player(unread)  # (read, and still none: not asked for again and again)


def test_without_wanted_levels_every_level_is_played_again_when_all_are_finished():
    said: list[str] = []
    player = Player(None, solving([PLAN])[1], said=said.append)
    assert player(finished(1, 2, 3, 4, 5)) == Action(Kind.OPEN, 1)
    assert player.wanted == [1, 2, 3, 4, 5] and player.before == {1, 2, 3, 4, 5}
    assert said == ["all 5 levels were done before this run: playing them all again"]


def test_a_locked_level_is_reached_through_the_highest_open_one_before_it():
    _, solve = solving([PLAN])
    player = Player([3], solve)
    assert player(select(1, 2)) == Action(Kind.OPEN, 3)
    assert player(select(1, 2)) == Action(Kind.OPEN, 2, unlocking=True)
    player(level(2, puzzle=PUZZLE))
    player(level(2, PLAN[:1]))
    assert player(COMPLETED) == Action(Kind.OPEN, 3)  # the wanted level again, now open
    assert player(level(3, puzzle=PUZZLE)).kind is Kind.PLACE


def test_a_level_still_locked_after_the_one_before_is_an_error():
    _, solve = solving([PLAN])
    player = Player([3], solve)
    player(select(1, 2))
    player(select(1, 2))
    player(level(2, puzzle=PUZZLE))
    player(level(2, PLAN[:1]))
    player(COMPLETED)
    with pytest.raises(WebbotError, match="still locked after level 2 was completed"):
        player(select(1, 2))
    player = Player([3], solve)
    player(select())
    with pytest.raises(WebbotError, match="no earlier level is open"):
        player(select())


def started(player: Player, first: Observation) -> Action:
    player(select(1))
    return player(first)


def test_a_drop_that_did_not_land_is_tried_again_then_the_level_restarted():
    _, solve = solving([PLAN])
    player = Player([1], solve)
    assert started(player, level(1, puzzle=PUZZLE)).placement == PLAN[0]
    for _ in range(DROP_TRIES - 1):
        assert player(level(1)) == Action(Kind.PLACE, 1, PLAN[0])  # nothing moved: again
    assert player(level(1)) == Action(Kind.RESTART, 1)
    assert player(level(1)) == Action(Kind.PLACE, 1, PLAN[0])  # from the first piece again


def test_a_wrong_board_is_restarted_until_the_restarts_run_out():
    _, solve = solving([PLAN])
    player = Player([1], solve)
    started(player, level(1, puzzle=PUZZLE))
    wrong = level(1, (Placement(0, 0, 2, "white"),))  # the 2 went where the 1 belongs
    for _ in range(RESTARTS):
        assert player(wrong) == Action(Kind.RESTART, 1)
        assert player(level(1)).kind is Kind.PLACE
    with pytest.raises(WebbotError, match=f"kept going wrong after {RESTARTS} restarts"):
        player(replace(wrong, view=replace(wrong.view, red=True)))


def test_a_level_left_half_done_or_wrong_is_restarted_and_read_again_first():
    _, solve = solving([PLAN])
    player = Player([1], solve)
    assert started(player, level(1, PLAN[:1], puzzle=PUZZLE)) == Action(Kind.RESTART, 1,
                                                                         read=True)
    assert player(level(1, puzzle=PUZZLE)).kind is Kind.PLACE


def test_several_solutions_mean_a_restart_and_a_reading_afresh():
    other = Puzzle(CELLS, PUZZLE.pieces, (Sum("row", 0, 3), Sum("col", 0, 1)))
    asked, solve = solving([PLAN, PLAN[::-1]], [PLAN])
    player = Player([1], solve)
    assert started(player, level(1, puzzle=PUZZLE)) == Action(Kind.RESTART, 1, read=True)
    assert player(level(1, puzzle=other)).placement == PLAN[0]
    assert asked == [PUZZLE, other]


def test_no_solution_means_a_second_reading_and_then_a_refusal_naming_the_weakest():
    _, solve = solving([])
    player = Player([1], solve)
    assert started(player, level(1, puzzle=PUZZLE)) == Action(Kind.REREAD, 1)
    with pytest.raises(UnreadableScreen, match="has no solution, so something was misread"):
        player(level(1, puzzle=PUZZLE))


def test_after_a_lost_page_the_level_under_way_is_opened_again_from_the_start():
    _, solve = solving([PLAN])
    player = Player([1, 2], solve)
    player(select(1, 2))
    player(level(1, puzzle=PUZZLE))
    player(level(1, PLAN[:1]))  # the second piece is under way when the page is lost
    player.resume()
    title = Observation(None, None, "title")  # type: ignore[arg-type]
    assert player(title) == Action(Kind.OPEN, 1)
    assert player(level(1)) == Action(Kind.REREAD, 1)  # a fresh level, read afresh
    assert player(level(1, puzzle=PUZZLE)) == Action(Kind.PLACE, 1, PLAN[0])


def test_every_piece_in_one_go_then_one_look_says_which_to_drag_again():
    _, solve = solving([PLAN])
    player = Player([1], solve, drags_per_look=None)
    assert started(player, level(1, puzzle=PUZZLE)) == Action(Kind.PLACE, 1, PLAN[0], last=True,
                                                              then=(PLAN[1],))
    assert player(level(1, PLAN[1:])) == Action(Kind.PLACE, 1, PLAN[0], last=True)  # lost: again
    assert player(level(1, PLAN[1:])) == Action(Kind.RESTART, 1)  # lost twice
    assert player(level(1)) == Action(Kind.PLACE, 1, PLAN[0], last=True, then=(PLAN[1],))
    assert player(level(1, PLAN[:1])) == Action(Kind.PLACE, 1, PLAN[1], last=True)  # on from it
    with pytest.raises(WebbotError, match="every piece is on its cell"):
        player(level(1, PLAN))


def test_a_kept_solver_searches_once_for_a_puzzle_asked_twice_and_keeps_an_error_too():
    from webbot.puzlogic.bot import LastKept
    from webbot.puzlogic.solvers.deadline import SolverTimeout

    asked, solve = solving([PLAN])
    kept = LastKept(solve)
    assert kept(PUZZLE) == kept(replace(PUZZLE)) == [PLAN]  # (an equal puzzle, read again)
    assert len(asked) == 1
    other = replace(PUZZLE, sums=(Sum("row", 0, 4),))
    kept(other)
    assert asked == [PUZZLE, other]

    def timing_out(puzzle: Puzzle, timeout_s: float | None = None) -> list:
        asked.append(puzzle)
        raise SolverTimeout("no solution within 1 s")

    kept = LastKept(timing_out)
    for _ in range(2):
        with pytest.raises(SolverTimeout, match="within 1 s"):
            kept(PUZZLE)
    assert asked.count(PUZZLE) == 2  # (once for each solver)


def test_an_early_search_is_kept_only_when_it_ends_in_its_time_and_is_counted_once():
    from webbot.puzlogic.bot import LastKept
    from webbot.puzlogic.solvers.deadline import SolverTimeout

    limits: list = []

    def solve(puzzle: Puzzle, timeout_s: float | None = None) -> list:
        limits.append(timeout_s)
        if timeout_s is not None and puzzle != PUZZLE:
            raise SolverTimeout("no solution within 0.1 s")
        return [PLAN]

    kept = LastKept(solve)
    assert kept.early(PUZZLE, 0.1) == [PLAN] and kept(PUZZLE) == [PLAN]
    assert limits == [0.1]  # (the policy's call served from the early search)
    hard = replace(PUZZLE, sums=(Sum("row", 0, 4),))
    assert kept.early(hard, 0.1) is None  # too long for a first reading: nothing kept ...
    assert kept(hard) == [PLAN] and limits == [0.1, 0.1, None]  # ... the policy's own search
    assert kept.unreported_s() > 0 and kept.unreported_s() == 0  # (each search said once)


def test_the_solving_time_recorded_is_what_a_kept_solver_searched_not_its_second_answer():
    from webbot.puzlogic.bot import LastKept

    kept = LastKept(solving([PLAN])[1])
    kept(PUZZLE)  # (the bot's, on a first reading)
    kept._unreported = 0.25  # what that search took
    player = Player([1], kept)
    assert player(level(1, puzzle=PUZZLE)).kind is Kind.OPEN
    action = player(level(1, puzzle=PUZZLE))
    assert action.kind is Kind.PLACE
    assert action.solved is not None and action.solved.ms == pytest.approx(250)
    assert kept.unreported_s() == 0  # (a replay of the level would count no second search)
