"""In-page mouse events: drags and clicks land where the bot aims."""

from __future__ import annotations

import math

import pytest

from webbot.mouse import Mouse, path
from webbot.screen import Screen


def test_path_is_smooth_and_ends_on_target():
    points = path((0, 0), (300, 40))
    assert points[-1] == (300, 40)
    steps = [math.dist(a, b) for a, b in zip([(0, 0), *points], points, strict=False)]
    assert len(points) >= 10
    assert steps[0] < steps[len(steps) // 2] > steps[-1]  # slow start and finish


def test_short_moves_still_have_intermediate_points():
    assert len(path((10, 10), (11, 10))) >= 3


def test_a_path_can_be_given_its_number_of_moves():
    assert path((0, 0), (300, 40), steps=1) == [(300, 40)]
    two = path((0, 0), (300, 40), steps=2)
    assert len(two) == 2 and two[0] == pytest.approx((150, 20)) and two[-1] == (300, 40)


def events_of(page):
    return page.evaluate("window.events")


def test_drag_delivers_down_moves_up_at_the_right_points(page, pages_url):
    page.goto(f"{pages_url}events.html")
    mouse = Mouse(page)
    # The canvas sits at (50, 40): canvas point (118, 118) is page point (168, 158).
    mouse.drag((168, 158), (350, 260))

    events = [e for e in events_of(page) if e["type"] != "mousemove" or e["buttons"]]
    down, *moves, up = events
    assert (down["type"], down["x"], down["y"]) == ("mousedown", 118, 118)
    assert (up["type"], up["x"], up["y"]) == ("mouseup", 300, 220)
    assert len(moves) >= 5 and all(e["type"] == "mousemove" and e["buttons"] == 1 for e in moves)
    distances = [math.dist((e["x"], e["y"]), (300, 220)) for e in moves]
    assert distances == sorted(distances, reverse=True)


@pytest.mark.parametrize("dpr", [1, 2])
def test_drag_from_picture_coordinates(browser, pages_url, dpr):
    context = browser.new_context(device_scale_factor=dpr)
    page = context.new_page()
    page.goto(f"{pages_url}events.html")
    grab = Screen(page, "#board").grab()
    # The purple piece is drawn at canvas (100..136, 100..136): find it in the picture.
    image = grab.image
    ys, xs = ((image[:, :, 2] > 120) & (image[:, :, 0] > 200) & (image[:, :, 1] < 60)).nonzero()
    piece = grab.to_page(xs.mean() + 0.5, ys.mean() + 0.5)
    target = grab.to_page(350 * dpr, 250 * dpr)

    Mouse(page).drag(piece, target)

    events = events_of(page)
    down = next(e for e in events if e["type"] == "mousedown")
    up = next(e for e in events if e["type"] == "mouseup")
    assert (down["x"], down["y"]) == (pytest.approx(118, abs=1), pytest.approx(118, abs=1))
    assert (up["x"], up["y"]) == (350, 250)
    context.close()


def test_right_click(page, pages_url):
    page.goto(f"{pages_url}events.html")
    Mouse(page).click(150, 140, button="right")
    kinds = [(e["type"], e["button"]) for e in events_of(page) if e["type"] != "mousemove"]
    assert ("mousedown", 2) in kinds and ("contextmenu", 2) in kinds


def test_a_click_again_where_the_mouse_rests_makes_no_move(page, pages_url):
    page.goto(f"{pages_url}events.html")
    done_by_others = [0]
    mouse = Mouse(page, others=lambda: done_by_others[0])
    mouse.click(150, 140)
    moved = len([e for e in events_of(page) if e["type"] == "mousemove"])
    mouse.click(150, 140)  # a press again on a button that did not take
    kinds = [e["type"] for e in events_of(page)]
    assert kinds.count("mousemove") == moved and kinds.count("mousedown") == 2

    done_by_others[0] += 1  # (a consent button clicked, say: the mouse may be elsewhere)
    mouse.click(150, 140)
    assert [e["type"] for e in events_of(page)].count("mousemove") > moved
    moved = len([e for e in events_of(page) if e["type"] == "mousemove"])
    mouse.click(151, 140)  # another point
    assert [e["type"] for e in events_of(page)].count("mousemove") > moved


def test_a_drag_from_where_the_mouse_rests_makes_no_moves_on_the_spot(page, pages_url):
    page.goto(f"{pages_url}events.html")
    mouse = Mouse(page)
    mouse.move_to(168, 158)  # (as a launch puts the mouse on the ring post first)
    before = len(events_of(page))
    mouse.drag((168, 158), (350, 260), steps=(None, 4))
    kinds = [e["type"] for e in events_of(page)[before:]]
    assert kinds == ["mousedown"] + ["mousemove"] * 4 + ["mouseup"]


def test_a_drag_sent_soon_goes_out_while_the_caller_looks_on(page, pages_url):
    """The same inputs as a drag, going out on Playwright's loop while the caller's own calls
    run; any other input waits for them, so nothing comes between the press and the
    release."""
    page.goto(f"{pages_url}events.html")
    mouse = Mouse(page)
    mouse.drag((168, 158), (350, 260), steps=(1, 4))
    done = events_of(page)
    page.evaluate("window.events = []")

    mouse.position = None
    mouse.drag_soon((168, 158), (350, 260), steps=(1, 4))
    assert mouse.busy  # (none of its inputs can have gone out: no call has run since)
    mouse.click(200, 200)  # waits for the drag's release
    assert not mouse.busy
    kinds = [(e["type"], e["x"], e["y"]) for e in events_of(page)]
    assert kinds[:len(done)] == [(e["type"], e["x"], e["y"]) for e in done]
    assert [kind for kind, *_ in kinds[len(done):]].count("mousedown") == 1
    assert kinds[-1] == ("mouseup", 150, 160)


def test_a_click_sent_soon_lands_and_says_when_it_is_done(page, pages_url):
    page.goto(f"{pages_url}events.html")
    mouse = Mouse(page)
    before = mouse.acted_at
    mouse.click_soon(150, 140)
    while mouse.busy:  # a look's calls let it out
        page.evaluate("1")
    mouse.check()
    assert mouse.acted_at > before
    kinds = [(e["type"], e["x"], e["y"]) for e in events_of(page) if e["type"] != "mousemove"]
    assert kinds == [("mousedown", 100, 100), ("mouseup", 100, 100)]


def test_a_hover_sent_soon_goes_out_before_the_press_and_is_no_input_to_show(page,
                                                                             pages_url):
    """A hand made ready over a piece while the second picture of the level comes: its move
    goes out while the caller waits on the page; the press after it waits for it; and a
    picture asked before the move still shows the game as it is (a hover takes nothing), so
    the mouse's `acted_at` stays."""
    page.goto(f"{pages_url}events.html")
    mouse = Mouse(page)
    before = mouse.acted_at
    mouse.hover_soon(168, 158)
    assert mouse.busy and mouse.rests_at(168, 158)
    while mouse.busy:  # a look's calls let it out
        page.evaluate("1")
    mouse.check()
    assert mouse.acted_at == before
    assert [e["type"] for e in events_of(page)] == ["mousemove"]

    mouse.hover_soon(168, 158)  # resting there: nothing sent
    assert not mouse.busy
    mouse.hover_soon(200, 200, steps=1)
    mouse.click(200, 200)  # waits for the move; makes none of its own
    kinds = [(e["type"], e["x"], e["y"]) for e in events_of(page)]
    assert kinds[1:] == [("mousemove", 150, 160), ("mousedown", 150, 160),
                         ("mouseup", 150, 160)]
    assert mouse.acted_at > before


def test_inputs_sent_soon_to_a_page_that_stops_answering_end_in_a_clear_error(browser,
                                                                              pages_url):
    from webbot.answer import NoAnswer

    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{pages_url}events.html")
        mouse = Mouse(page)
        page.evaluate("setTimeout(() => { while (true) {} }, 0)")
        mouse.drag_soon((168, 158), (350, 260))
        with pytest.raises(NoAnswer, match="the mouse got no answer within 1 s"):
            mouse.finish(seconds=1)
    finally:
        context.close()


def test_a_press_of_the_way_waits_for_the_drag_going_out(page, pages_url):
    """A popup's button pressed by the way in the middle of a launch would break its drag:
    the session's way first lets the mouse finish (Session.find_game sets it so)."""
    from webbot.screen import Box
    from webbot.way import Clearance, Cover, Way

    page.goto(f"{pages_url}events.html")
    page.evaluate("""() => {
        const button = document.createElement("button");
        button.textContent = "Close";
        button.style = "position:absolute;left:600px;top:20px";
        button.onclick = () => window.events.push({type: "cover-click"});
        document.body.appendChild(button);
    }""")
    way = Way(page, page.query_selector("#board"), lambda: Box(50, 40, 400, 300),
              Clearance(None))
    mouse = Mouse(page, guard=way.guard)
    way.before_press = mouse.finish
    mouse.drag_soon((168, 158), (350, 260), steps=(1, 8))
    way.press(Cover("a test popup", page.query_selector("button")))
    kinds = [e["type"] for e in events_of(page)]
    assert kinds.count("mouseup") == 1 and kinds.index("mouseup") < kinds.index("cover-click")
