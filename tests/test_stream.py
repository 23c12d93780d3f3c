"""The screencast camera (webbot.stream, Screen.look): the pictures it pushes are the pulled
ones, never older than the last input, and map to the page as the pulled ones do, cross-site
frames and DPR 2 included; where there is none, pictures are pulled, and that is said once."""

from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pytest

import webbot.screen
from tests.test_screen import game_two_frames_deep, red_centre
from webbot.debug import Recorder
from webbot.mouse import Mouse
from webbot.screen import Grab, MovedSinceSeen, Screen
from webbot.session import Session
from webbot.stream import SHOWN_AFTER_INPUT, FrameStream, frames_begun
from webbot.vision.still import changed_fraction

# A dot turning in the window's corner, away from what is looked at: the page never holds
# still, so Chromium keeps sending frames.
SPINNER = """() => {
  const dot = document.createElement('div');
  dot.style.cssText = 'position:fixed;right:0;bottom:0;width:4px;height:4px;background:#00f';
  document.body.appendChild(dot);
  (function turn(now) { dot.style.opacity = 0.5 + 0.5 * Math.sin(now / 50);
                        requestAnimationFrame(turn); })(0);
}"""


# The same dot drawn again each frame: Chromium sends frames, each the same bytes.
REDRAWN = """() => {
  const dot = document.createElement('canvas');
  dot.width = dot.height = 4;
  dot.style.cssText = 'position:fixed;left:0;bottom:0';
  document.body.appendChild(dot);
  const pen = dot.getContext('2d');
  (function draw() { pen.fillStyle = '#00f'; pen.fillRect(0, 0, 4, 4);
                     requestAnimationFrame(draw); })();
}"""


def streamed(page, selector: str, mouse: Mouse | None = None, **options) -> Screen:
    """A Screen on the page's screencast, once its first frame has come; its looks wait for
    `mouse`'s inputs."""
    stream = FrameStream(page)
    assert stream.start()
    assert stream.frame_after(-math.inf, 10) is not None
    acted_at = (lambda: mouse.acted_at) if mouse is not None else (lambda: -math.inf)
    return Screen(page, selector, stream=stream, acted_at=acted_at, **options)


def squares(image: np.ndarray) -> int:
    """The black squares in a row on the clicks page."""
    row = image[50, :, :].max(axis=1) < 60
    return int(np.count_nonzero(row[1:] & ~row[:-1]))


def test_a_streamed_look_is_the_pulled_picture_pixel_for_pixel(page, pages_url):
    page.goto(f"{pages_url}geometry.html")
    page.evaluate(SPINNER)
    pulled = Screen(page, "#stage").grab()  # (before the stream: a pull would upset it)
    screen = streamed(page, "#stage")
    seen = next(look for look in (screen.look() for _ in range(20)) if look.streamed)
    assert np.array_equal(seen.image, pulled.image)
    Mouse(page).click(*seen.to_page(*red_centre(seen.image)))
    assert page.evaluate("window.hits") == ["marker"]


# The page's Date.now(), which the camera reads once at its start to set its clock by: as it
# is, or lying (far in the past, far in the future): the frames' own times bound the clock, and
# frames counted as they come bound the wait.
@pytest.mark.parametrize("date_now", [None, "0", "1e13 + performance.now()"])
def test_no_look_shows_the_page_as_it_was_before_the_last_press(page, pages_url, date_now):
    page.goto(f"{pages_url}clicks.html")
    if date_now is not None:
        page.evaluate(f"Date.now = () => {date_now}")
    mouse = Mouse(page)
    screen = streamed(page, "#scene", mouse)
    assert squares(screen.look().image) == 0
    for presses in range(1, 11):
        mouse.click(200, 100)
        for _ in range(3):  # the look after the press, and the next ones
            seen = screen.look()
            assert seen.streamed and not seen.before_input
            assert squares(seen.image) == presses == page.evaluate("presses")
            if date_now is None:  # (a frame's time on this process's clock, by the page's)
                assert seen.taken_at > mouse.acted_at


# A press turns the canvas white until the test turns it black again (an effect soon over,
# like a rocket slam whose flight ends); a red square moves along the top so frames keep coming.
FLASH = """<body style="margin:0"><canvas id="scene" width="200" height="100"></canvas><script>
  const g = document.getElementById("scene").getContext("2d");
  window.white = false;
  window.presses = 0;
  document.addEventListener("mousedown", () => { window.white = true; window.presses += 1; });
  (function draw() { g.fillStyle = window.white ? "#fff" : "#000";
                     g.fillRect(0, 0, 200, 100); g.fillStyle = "#f00";
                     g.fillRect(performance.now() / 10 % 190, 0, 10, 10);
                     requestAnimationFrame(draw); })();
</script></body>"""


def test_a_late_look_after_a_press_still_sees_its_first_effect(page):
    # The look comes late, as on a busy machine: by then the effect is over, and the newest
    # frame (what a look took) is black again.
    page.set_content(FLASH)
    mouse = Mouse(page)
    screen = streamed(page, "#scene", mouse)
    stream = screen.stream
    deadline = time.monotonic() + 10

    def until(condition) -> None:
        while not condition():
            assert time.monotonic() < deadline, "no frame came"
            page.wait_for_timeout(10)

    for presses in range(1, 4):
        mouse.click(100, 50)
        pressed = stream.on_browser_clock(mouse.acted_at)
        until(lambda at=pressed: stream.nth_shown_after(at, SHOWN_AFTER_INPUT) is not None)
        page.evaluate("window.white = false")
        turned = stream.newest.shown_at
        until(lambda at=turned: stream.newest.shown_at > at and
              stream.newest.image()[50, 100].max() == 0)
        seen = screen.look()
        assert seen.streamed and seen.image[50, 100].min() == 255
        assert page.evaluate("presses") == presses


def test_early_looks_see_every_frame_and_say_which_may_not_show_the_press_yet(page,
                                                                               pages_url):
    page.goto(f"{pages_url}clicks.html")
    mouse = Mouse(page)
    screen = streamed(page, "#scene", mouse)
    last = screen.look(early=True)
    for presses in range(1, 6):
        mouse.click(200, 100)
        early = 0
        while True:
            seen = screen.look(early=True)
            assert seen.streamed and seen.taken_at > last.taken_at  # each a newer frame
            last = seen
            if not seen.before_input:
                break
            early += 1
            assert squares(seen.image) in (presses - 1, presses)
        assert squares(seen.image) == presses == page.evaluate("presses")
        assert early <= 2 * SHOWN_AFTER_INPUT  # (frames the screencast left out aside)


@pytest.mark.parametrize("found_as", ["selector", "element"])
def test_a_point_seen_before_the_game_moved_is_not_clicked_and_the_next_look_is_right(
        page, pages_url, found_as):
    page.goto(f"{pages_url}geometry.html")
    page.evaluate(SPINNER)
    # (a game found as its element has its box measured without waiting, at its pace)
    element = page.query_selector("#stage") if found_as == "element" else None
    screen = streamed(page, "#stage", element=element)
    seen = next(look for look in (screen.look() for _ in range(20)) if look.streamed)
    page.evaluate("document.getElementById('stage').style.top = '90px'")  # a banner above
    with pytest.raises(MovedSinceSeen):
        seen.to_page(*red_centre(seen.image))
    again = screen.look()
    assert again.box.y == 90
    Mouse(page).click(*again.to_page(*red_centre(again.image)))
    assert page.evaluate("window.hits") == ["marker"]


TURNING = """<body style="margin:0"><canvas id="scene" width="200" height="100"></canvas><script>
  const g = document.getElementById("scene").getContext("2d");
  window.turnsAt = Infinity;  // Date.now() from which the canvas is drawn white
  (function draw() { g.fillStyle = Date.now() < window.turnsAt ? "#000" : "#fff";
                     g.fillRect(0, 0, 200, 100); g.fillStyle = "#f00";
                     g.fillRect(performance.now() / 10 % 190, 0, 10, 10);
                     requestAnimationFrame(draw); })();
</script></body>"""


def test_a_frame_is_not_taken_for_the_page_while_the_browser_is_too_busy_to_draw(
        page, monkeypatch):
    # The canvas turns white 150 ms from now, while the page's script is busy for 1.5 s and
    # draws nothing: a look dated after the turn shows white, though the last frame drawn
    # (black) is all the screencast has until the page draws again.
    page.set_content(TURNING)
    monkeypatch.setattr(webbot.screen, "BOX_FRESH_S", 60)  # (the box measured once: no look
    screen = streamed(page, "#scene")                      # waits on the page for it)
    assert screen.look().image[50, 100].max() == 0
    turns_at = page.evaluate("""() => { window.turnsAt = Date.now() + 150;
      setTimeout(() => { const end = Date.now() + 1500; while (Date.now() < end); }, 20);
      return window.turnsAt; }""") / 1000
    wall = time.time() - time.monotonic()  # this process's monotonic clock on the wall's
    looked = []
    while time.time() < turns_at + 2.0:
        seen = screen.look()
        looked.append((wall + seen.taken_at, int(seen.image[50, 100].max())))
    # (a frame shows what its page drew some frames before it was shown)
    after = [colour for shown, colour in looked if shown > turns_at + 0.1]
    assert after and all(colour == 255 for colour in after)
    assert [shown for shown, _ in looked] == sorted(shown for shown, _ in looked)


def test_a_frame_sent_again_as_it_was_is_known_for_the_same_pixels(page, pages_url):
    """A screen holding still comes as the same bytes frame after frame (the game's shop): a
    frame sent again shares the one before's data and decoded picture, and a reader may take
    its reading of one for both (BurritoBot.look); a frame that differs anywhere does not."""
    page.goto(f"{pages_url}geometry.html")
    page.evaluate(REDRAWN)
    screen = streamed(page, "#stage")

    def pairs(count: int) -> list[tuple[Grab, Grab]]:
        looks = [screen.look() for _ in range(count)]
        for before, after in itertools.pairwise(looks):
            assert after.same_pixels(before) == (after.source == before.source)
            if after.same_pixels(before):
                assert np.array_equal(after.image, before.image)
        return list(itertools.pairwise(looks))

    again = [(before, after) for before, after in pairs(12) if after.same_pixels(before)]
    # (a new frame: one the camera dates anew as the page held still came once)
    assert any(after.arrived_at > before.arrived_at for before, after in again), \
        "no new frame came as the one before"
    page.evaluate(SPINNER)  # (away from the stage: the frames differ, not what is looked at)
    assert not all(after.same_pixels(before) for before, after in pairs(6))


def test_a_page_that_holds_still_is_looked_at_in_its_last_frame(page, pages_url):
    page.goto(f"{pages_url}geometry.html")
    screen = streamed(page, "#stage")
    first = screen.look()
    again = screen.look()  # nothing shown since: the newest frame stands
    assert first.streamed and again.streamed
    assert np.array_equal(again.image, first.image)
    # ... dated when the page was known to show it still: time goes on for whoever waits
    # for the page to hold still
    assert again.taken_at > first.taken_at


@pytest.mark.parametrize("dpr", [1, 2])
def test_a_click_reaches_a_cross_site_frame_at_the_point_streamed(browser, fixtures_url, dpr):
    context, page, element, frame = game_two_frames_deep(browser, fixtures_url, dpr, SPINNER)
    pulled = Screen(page, "canvas#game", element=element).grab()
    screen = streamed(page, "canvas#game", element=element)
    # (Frames shown before the window's size reached the screencast come smaller, and are
    # left for pulled pictures.)
    seen = next(look for look in (screen.look() for _ in range(20)) if look.streamed)
    assert seen.image.shape[:2] == (600, 800)  # CSS pixels, whatever the ratio
    # (the game shimmers: two pulled pictures differ a little too)
    assert changed_fraction(seen.image, pulled.image, threshold=30) < 0.01
    Mouse(page).click(*seen.to_page(120, 90))
    assert frame.evaluate("downs") == [[120, 90]]
    context.close()


def test_without_a_screencast_pictures_are_pulled_and_that_is_said_once(page, pages_url,
                                                                         monkeypatch):
    page.goto(f"{pages_url}geometry.html")
    monkeypatch.setattr(FrameStream, "start", lambda self: False)  # as on Firefox
    said = []
    session = Session(page, page.url, Recorder(), Mouse(page))
    assert session.screencast(said.append) is None
    assert session.screencast(said.append) is None
    assert said == ["no screencast from this browser: pictures are taken one at a time"]


@pytest.mark.parametrize("clock", [None, "() => 0", "() => 1e13 + performance.now()"])
def test_the_moment_frames_begin_is_never_one_a_page_s_clock_puts_before_or_long_after_it(
        page, pages_url, clock):
    # A page whose Date.now() said 0 had a look take the oldest frame kept, from before the
    # last press (CI, under load: the page looked still, and frames shown "after 0" were taken).
    page.goto(f"{pages_url}clicks.html")
    if clock is not None:
        page.evaluate(f"Date.now = {clock}")
    before = time.time()
    mark = frames_begun(page.locator("#scene"))
    assert before - 0.05 <= mark <= time.time() + 0.05
