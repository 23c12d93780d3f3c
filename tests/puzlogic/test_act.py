import math

import pytest

from webbot.puzlogic.act import Tempo


@pytest.mark.parametrize("options", [{"drags_per_look": 0}, {"drags_per_look": -2},
                                     {"camera": "webp"}, {"camera": "Pulled"}])
def test_a_tempo_that_means_nothing_is_refused(options):
    with pytest.raises(ValueError):
        Tempo(**options)


@pytest.mark.parametrize("options", [{"drags_per_look": 1}, {"drags_per_look": None},
                                     {"camera": "png"}, {"camera": "pulled"}])
def test_a_tempo_at_the_edge_of_what_it_means_is_accepted(options):
    tempo = Tempo(**options)
    assert all(getattr(tempo, name) == value for name, value in options.items())


class _Unscaled:
    """An observation's page points as given (the events page's canvas is not scaled)."""

    @staticmethod
    def page_point(point):
        return point


def test_a_hand_made_ready_checks_the_way_there_moves_onto_it_and_presses_nothing(page,
                                                                                   pages_url):
    from webbot.mouse import Mouse
    from webbot.puzlogic.act import Hands

    page.goto(f"{pages_url}events.html")
    checked: list[tuple[float, float]] = []
    mouse = Mouse(page, guard=lambda x, y: checked.append((x, y)))
    Hands(mouse).ready(_Unscaled(), (168, 158))  # canvas point (118, 118)
    assert checked == [(168, 158)]  # (the way's own check runs at most every half second)
    assert mouse.rests_at(168, 158)
    mouse.finish()  # (the move goes out while the bot reads its second picture)
    assert mouse.acted_at == -math.inf  # (a picture asked before it still stands)
    events = page.evaluate("window.events")
    assert [e["type"] for e in events] == ["mousemove"]
    assert (events[-1]["x"], events[-1]["y"]) == (118, 118)


def test_a_hand_made_ready_for_a_menu_press_has_the_way_checked_now(page, pages_url):
    """Before Next on the completed screen the way is checked whenever it last was: a popup
    opening as a level ends took that press once (CI), the way's half-second pace skipping the
    check."""
    from webbot.mouse import Mouse
    from webbot.puzlogic.act import Hands

    page.goto(f"{pages_url}events.html")
    checked: list[tuple] = []
    mouse = Mouse(page, guard=lambda x, y, **pace: checked.append((x, y, pace)))
    Hands(mouse).ready(_Unscaled(), (168, 158), check_now=True)
    Hands(mouse).ready(_Unscaled(), (168, 158))
    assert checked == [(168, 158, {"every_s": 0}), (168, 158, {})]
