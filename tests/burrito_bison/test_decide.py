"""The decision rules and the stuck watchdog, without a browser."""

from __future__ import annotations

import pytest

from webbot.burrito_bison.decide import (
    DEFAULT_PATIENCE_S,
    LAUNCH_DRAG,
    RETRY_S,
    Decider,
    Watchdog,
    settled,
)
from webbot.burrito_bison.model import Match, Sighting


def seen(screen: str, at=(100.0, 100.0), **targets) -> Sighting:
    evidence = Match("indicator", 1.0, at[0], at[1], 20, 10)
    return Sighting(screen, evidence, dict(targets))


def test_a_screen_whose_indicator_moves_is_not_settled():
    assert not settled(seen("ring", (100, 50)), seen("ring", (100, 40)))
    assert not settled(seen("ring"), None)
    assert not settled(seen("ring"), seen("missions"))
    assert settled(seen("ring", launch=(10, 10)), seen("ring", launch=(10.5, 10)))
    assert not settled(seen("ring", launch=(10, 10)), seen("ring", launch=(30, 10)))


def test_the_launch_pulls_left_from_the_post_once_the_ring_is_settled():
    decider = Decider()
    ring = seen("ring", launch=(350.0, 530.0))
    assert decider.decide(ring, None, 0.0).kind == "wait"
    action = decider.decide(ring, ring, 0.1)
    assert action.kind == "launch"
    assert action.at == (350.0, 530.0)
    assert action.end == (350.0 + LAUNCH_DRAG[0], 530.0 + LAUNCH_DRAG[1])


def test_a_screen_that_ignored_a_click_gets_another_only_after_a_pause():
    decider = Decider()
    missions = seen("missions", **{"continue": (590.0, 600.0)})
    assert decider.decide(missions, missions, 1.0).kind == "click"
    decider.acted("missions", 1.0)
    assert decider.decide(missions, missions, 1.0 + RETRY_S / 2).kind == "wait"
    assert decider.decide(missions, missions, 1.0 + RETRY_S).kind == "click"


def test_a_full_rocket_is_used_at_once():
    rocket = seen("rocket_ready", rocket=(43.0, 322.0))
    action = Decider().decide(rocket, None, 0.0)
    assert (action.kind, action.at) == ("click", (43.0, 322.0))


@pytest.mark.parametrize("screen", ["flight", "unknown"])
def test_nothing_is_done_in_flight_or_on_an_unknown_screen(screen):
    sighting = seen(screen)
    assert Decider().decide(sighting, sighting, 5.0).kind == "wait"


def test_results_are_read_before_going_on_and_the_shop_only_when_wanted():
    results = seen("results", next=(970.0, 570.0), shop=(780.0, 570.0))
    decider = Decider()
    assert decider.decide(results, results, 0.0).kind == "read_results"
    decider.results_read, decider.want_shop = True, True
    assert decider.decide(results, results, 0.0).role == "shop"
    decider.want_shop = False
    assert decider.decide(results, results, 0.0).role == "next"
    no_shop = Decider(shop=False, results_read=True, want_shop=True)
    assert no_shop.decide(results, results, 0.0).role == "next"
    decider.decide(seen("ring"), None, 1.0)  # a new screen: the next results are unread
    assert decider.decide(results, results, 2.0).kind == "read_results"


def test_the_watchdog_raises_an_alarm_per_patience_until_the_screen_changes():
    dog = Watchdog()
    assert not dog.seen("results", 0.0)
    assert not dog.seen("results", DEFAULT_PATIENCE_S - 0.1)
    assert dog.seen("results", DEFAULT_PATIENCE_S)
    assert dog.alarms == 1
    assert not dog.seen("results", DEFAULT_PATIENCE_S + 1)
    assert dog.seen("results", 2 * DEFAULT_PATIENCE_S)
    assert dog.alarms == 2
    assert dog.stuck_for(2 * DEFAULT_PATIENCE_S) == pytest.approx(2 * DEFAULT_PATIENCE_S)
    assert not dog.seen("ring", 2 * DEFAULT_PATIENCE_S + 1)
    assert dog.alarms == 0


def test_a_long_flight_is_not_stuck():
    dog = Watchdog()
    dog.seen("flight", 0.0)
    assert not dog.seen("flight", 60.0)


@pytest.mark.parametrize(("screen", "role"), [("title", "start"), ("comic", "continue"),
                                              ("flash_sale", "close"), ("cards", "pick")])
def test_the_screens_around_the_rounds_are_left_by_their_one_click(screen, role):
    decider = Decider()
    shown = seen(screen, **{role: (300.0, 200.0)})
    assert decider.decide(shown, None, 0.0).kind == "wait"  # not settled yet
    action = decider.decide(shown, shown, 0.1)
    assert (action.kind, action.at, action.role) == ("click", (300.0, 200.0), role)


def test_a_flash_sale_is_never_bought():
    decider = Decider()
    sale = seen("flash_sale", close=(600.0, 390.0), buy=(740.0, 390.0))
    assert decider.decide(sale, sale, 0.1).role == "close"
