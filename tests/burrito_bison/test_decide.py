"""The decision rules and each screen's patience, without a browser."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from webbot.burrito_bison.decide import (
    DEFAULT_PATIENCE_S,
    LAUNCH_DRAG,
    LAUNCH_RETRY_S,
    RETRY_S,
    SETTLE_PX,
    SETTLE_S,
    Decider,
    Kind,
    patience_s,
)
from webbot.burrito_bison.model import Match, Observation, Sighting
from webbot.screen import Box, Grab


def seen(screen: str, at=(100.0, 100.0), **targets) -> Sighting:
    evidence = Match("indicator", 1.0, at[0], at[1], 20, 10)
    return Sighting(screen, evidence, dict(targets))


def observed(sighting: Sighting, previous: Sighting | None, now: float, *,
             results_read: bool = False, affordable: bool = False,
             shown_at: float | None = None) -> Observation:
    """A look at `now` at a frame the game showed at `shown_at` (`now` by default)."""
    grab = Grab(np.zeros((660, 1173, 3), np.uint8), Box(0, 0, 1173, 660),
                taken_at=now if shown_at is None else shown_at, streamed=True)
    return Observation(grab, sighting, previous, now, results_read=results_read,
                       affordable=affordable)


def settled(decider: Decider, sighting: Sighting, now: float, **options) -> Observation:
    """A look at `now`, the screen having shown as it is since SETTLE_S before (told then)."""
    decider(observed(sighting, None, now - SETTLE_S))
    return observed(sighting, sighting, now, **options)


def test_a_screen_is_acted_on_once_its_art_has_stood_still_for_a_while():
    # An intro easing the ring in: a pixel a frame, under SETTLE_PX, but never still for
    # SETTLE_S; then it stands, a pixel of the match's jitter aside.
    decider, frame = Decider(), 1 / 60
    for i in range(30):
        ring = seen("ring", (100.0 + i, 50.0), launch=(10.0 + i, 10.0))
        assert decider(observed(ring, None, i * frame)).kind is Kind.WAIT
    launched = None
    for i in range(30, 60):
        ring = seen("ring", (129.0 + i % 2, 50.0), launch=(39.0, 10.0 - i % 2))
        if decider(observed(ring, None, i * frame)).kind is Kind.LAUNCH:
            launched = i * frame
            break
    # (it came within SETTLE_PX of where it stands a frame before it stopped)
    assert launched is not None and 28 * frame + SETTLE_S - 1e-9 <= launched
    assert launched <= 29 * frame + SETTLE_S + 2 * frame
    other = Decider()  # a target moved more than SETTLE_PX: the clock starts again
    other(observed(seen("ring", launch=(10.0, 10.0)), None, 0.0))
    assert other.still_for(seen("ring", launch=(10.0 + 2 * SETTLE_PX, 10.0)), 1.0) == 0.0
    assert other.still_for(seen("missions", launch=(10.0 + 2 * SETTLE_PX, 10.0)), 2.0) == 0.0


def test_the_launch_pulls_left_from_the_post_once_the_ring_is_settled():
    decider = Decider()
    ring = seen("ring", launch=(350.0, 530.0))
    assert decider(observed(ring, None, 0.0)).kind is Kind.WAIT
    action = decider(observed(ring, ring, SETTLE_S))
    assert action.kind is Kind.LAUNCH
    assert action.at == (350.0, 530.0)
    assert action.end == (350.0 + LAUNCH_DRAG[0], 530.0 + LAUNCH_DRAG[1])


def test_nothing_is_pressed_on_a_frame_shown_before_the_last_input_could_show():
    decider = Decider()
    missions = seen("missions", **{"continue": (590.0, 600.0)})
    early = settled(decider, missions, 1.0)
    early = Observation(replace(early.grab, before_input=True), missions, missions, 1.0)
    assert decider(early).kind is Kind.WAIT
    assert decider(observed(missions, missions, 1.1)).kind is Kind.CLICK


def test_nothing_is_done_while_the_last_inputs_are_still_going_out():
    """A launch's drag goes out while the bot looks on: its pictures may show it half done,
    and the next try of the screen counts from when its inputs were all out."""
    decider = Decider()
    ring = seen("ring", launch=(350.0, 530.0))
    assert decider(settled(decider, ring, 1.0)).kind is Kind.LAUNCH
    busy = observed(ring, ring, 1.0 + LAUNCH_RETRY_S)
    for now in (1.1, 1.3, 1.5, 1.0 + LAUNCH_RETRY_S):  # (a long drag: the clock moves on)
        assert decider(replace(busy, now=now, grab=replace(busy.grab, taken_at=now),
                               hands_busy=True)).kind is Kind.WAIT
    # Done at 2.0: the ring, still where it was, is tried again LAUNCH_RETRY_S after that.
    assert decider(observed(ring, ring, 2.0 + LAUNCH_RETRY_S / 2)).kind is Kind.WAIT
    assert decider(observed(ring, ring, 2.0 + LAUNCH_RETRY_S)).kind is Kind.LAUNCH
    missions = seen("missions", **{"continue": (590.0, 600.0)})
    late = settled(decider, missions, 9.0)
    assert decider(replace(late, hands_busy=True)).kind is Kind.WAIT
    assert decider(late).kind is Kind.CLICK


def test_a_screen_that_ignored_a_click_gets_another_only_after_a_pause():
    decider = Decider()
    missions = seen("missions", **{"continue": (590.0, 600.0)})
    assert decider(settled(decider, missions, 1.0)).kind is Kind.CLICK
    assert decider(observed(missions, missions, 1.0 + RETRY_S / 2)).kind is Kind.WAIT
    assert decider(observed(missions, missions, 1.0 + RETRY_S)).kind is Kind.CLICK


def test_a_late_frame_of_the_screen_a_click_left_is_not_clicked_again():
    """Looked at well after the click, but drawn before the click took effect (a busy
    machine's screencast running late): the screen may be gone, and the same place may be
    the next screen's button. A frame drawn RETRY_S after the click gets the retry."""
    decider = Decider()
    sale = seen("flash_sale", close=(900.0, 120.0))
    assert decider(settled(decider, sale, 1.0)).role == "close"
    late = observed(sale, sale, 1.0 + 2 * RETRY_S, shown_at=1.0 + RETRY_S / 2)
    assert decider(late).kind is Kind.WAIT
    assert decider(observed(sale, sale, 1.0 + 2 * RETRY_S, shown_at=1.0 + RETRY_S)).role == \
        "close"
    rocket = seen("rocket_ready", rocket=(43.0, 322.0))
    assert decider(observed(rocket, rocket, 5.0)).role == "rocket"
    assert decider(observed(rocket, rocket, 6.0, shown_at=5.1)).kind is Kind.WAIT


def test_a_full_rocket_is_used_at_once():
    rocket = seen("rocket_ready", rocket=(43.0, 322.0))
    action = Decider()(observed(rocket, None, 0.0))
    assert (action.kind, action.at) == (Kind.CLICK, (43.0, 322.0))


@pytest.mark.parametrize("screen", ["flight", "unknown"])
def test_nothing_is_done_in_flight_or_on_an_unknown_screen(screen):
    sighting = seen(screen)
    assert Decider()(observed(sighting, sighting, 5.0)).kind is Kind.WAIT


def test_results_are_read_before_going_on_and_the_shop_only_when_wanted():
    results = seen("results", next=(970.0, 570.0), shop=(780.0, 570.0))
    decider = Decider()
    assert decider(settled(decider, results, 0.0)).kind is Kind.READ_RESULTS
    read = observed(results, results, 0.0, results_read=True, affordable=True)
    assert decider.decide(read).role == "shop"
    assert decider.decide(observed(results, results, 0.0, results_read=True)).role == "next"
    other = Decider(shop=False)
    assert other.decide(settled(other, results, 0.0, results_read=True, affordable=True)).role \
        == "next"


def test_the_shop_is_visited_once_then_left_by_its_next_arrow():
    shop = seen("shop", next=(1100.0, 600.0))
    decider = Decider()
    assert decider(settled(decider, shop, 0.0)).kind is Kind.SHOP
    # The visit took 5 s and clicked Next itself: that click gets its time before another.
    assert decider(observed(shop, shop, 5.0)).kind is Kind.WAIT
    assert decider(observed(shop, shop, 5.0 + RETRY_S / 2)).kind is Kind.WAIT
    assert decider(observed(shop, shop, 5.0 + 2 * RETRY_S)).role == "next"
    decider(observed(seen("ring"), None, 8.0))
    assert decider(settled(decider, shop, 9.0)).kind is Kind.SHOP  # a new stay, a new visit


def test_a_long_flight_is_not_stuck():
    assert patience_s("flight") >= 60.0 and patience_s("results") == DEFAULT_PATIENCE_S
    assert patience_s("results", 1.0) == 1.0  # --stuck-after 1


@pytest.mark.parametrize(("screen", "role"), [("title", "start"), ("comic", "continue"),
                                              ("flash_sale", "close"), ("cards", "pick")])
def test_the_screens_around_the_rounds_are_left_by_their_one_click(screen, role):
    decider = Decider()
    shown = seen(screen, **{role: (300.0, 200.0)})
    assert decider(observed(shown, None, 0.0)).kind is Kind.WAIT  # not settled yet
    action = decider(observed(shown, shown, SETTLE_S))
    assert (action.kind, action.at, action.role) == (Kind.CLICK, (300.0, 200.0), role)


def test_a_flash_sale_is_never_bought():
    decider = Decider()
    sale = seen("flash_sale", close=(600.0, 390.0), buy=(740.0, 390.0))
    assert decider(settled(decider, sale, 0.1)).role == "close"
