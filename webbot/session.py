"""One game run: the fixture server (unless --url), a browser page, a recorder, and a mouse.

Every game command runs inside `game_session`, so they all get the same behaviour: the bundled
replica by default, `--debug-dir` output, and a saved last frame plus a one-line reason when
anything fails.

The Session is the one object that follows the page when recovery replaces it (`reopen`): what
works on a page (the mouse, the way to the game, the screen) is made anew for the new page, by
the Session and by the game when it finds the game again; nothing holds a page across a
recovery.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin

from playwright.sync_api import ElementHandle, Error, Page

from webbot.answer import NoAnswer, Soon, box, content, evaluate, page_resources, pause
from webbot.breakdown import write_if_asked
from webbot.browser import (
    ALIVE_S,
    OPEN_S,
    Unanswered,
    full_page,
    is_cdp_endpoint,
    open_url,
    open_url_again,
)
from webbot.consent import Consent
from webbot.consent.engine import read_rules_ahead
from webbot.debug import Recorder
from webbot.errors import WebbotError, ctrl_c_heard, first_line
from webbot.finder import Found, find_game
from webbot.game import GameSpec
from webbot.inputs import decode_page_picture
from webbot.mouse import Mouse
from webbot.options import FIND_TIMEOUT_S, MAX_RECOVERIES, RunOptions
from webbot.profile import profile_lock, remember_port, remembered_port, users_browser_data
from webbot.recovery import Recovery
from webbot.screen import Box, Camera, Grab, Screen
from webbot.server import FixtureServer
from webbot.shown import shown
from webbot.stream import JPEG_QUALITY, FrameStream
from webbot.tabs import Tab, open_tab
from webbot.vision.marks import Mark, lines
from webbot.way import Clearance

# How long a lost page's server is tried again (a server restarting, a network blip).
RETURN_PATIENCE_S = 60.0


@dataclass
class Session:
    page: Page
    url: str
    recorder: Recorder
    consent: Consent  # the consent chain of the page's context (webbot.browser.Tab makes it)
    game_selector: str | None = None
    find_timeout_s: float = FIND_TIMEOUT_S
    tab: Tab | None = None  # the way to get the page back (None: a page handed in, no way)
    max_recoveries: int = MAX_RECOVERIES
    found: Found | None = None  # the game where it was last found on this page
    recoveries: list[str] = field(default_factory=list)  # why the page was lost, each time
    stream: FrameStream | None = None  # the page's screencast, once a game asked for it
    streamless: bool = False  # none to be had from this browser (said once)
    stream_format: str = "jpeg"  # the screencast's pictures: png, or jpeg (lossy, cheaper)
    stream_quality: int = JPEG_QUALITY  # a JPEG frame's
    # The page's mouse, made again with each page and each game found on it (guarded then).
    mouse: Mouse = field(init=False)
    frame_stuck: bool = field(default=False, init=False)  # the game's frame stopped answering

    def __post_init__(self) -> None:
        self.mouse = Mouse(self.page)

    def lost(self) -> str | None:
        """What happened to the page, if it is gone (a crash, a close, the browser) or no
        longer holds the game it was found on (a reload, a navigation, an error page): None
        while all is there, or when there is no way to get it back."""
        if self.tab is None:
            return None
        return self.tab.lost() or self._game_dropped()

    def settle(self) -> None:
        """At the game's end: what the page's consent library finished meanwhile, said."""
        if self.found is not None:
            self.found.way.settle()

    @property
    def stuck(self) -> bool:
        """Whether the page, or the game's frame, was last found not answering."""
        return self.frame_stuck or (self.tab is not None and self.tab.stuck)

    def _game_dropped(self) -> str | None:
        if self.found is None:
            return None
        try:  # (the bot's own call got no answer already: the frame's is asked briefly)
            if evaluate(self.found.candidate.element, "e => e.isConnected", seconds=ALIVE_S):
                return None
        except Error:  # its frame or document went away with a navigation
            pass
        except NoAnswer:  # a frame of another site, its own renderer stuck; the top answers
            self.frame_stuck = True
            return "the game stopped answering (its frame's script never let go)"
        now = self.page.url
        if now.startswith("chrome-error:"):
            return "the page reloaded and could not load (its server stopped answering?)"
        return f"the page dropped the game (a reload or navigation; now at {shown(now)})"

    def reopen(self, report: Callable[[str], None] = lambda line: None) -> None:
        """A fresh page on the run's URL; the games find their game on it again. A server
        that does not answer is tried again for RETURN_PATIENCE_S."""
        assert self.tab is not None
        # The trace so far as trace-N.zip, while the old page's context is still there.
        self.recorder.stop_trace(f"trace-{self.tab.reopened + 1}.zip")
        self.page, self.consent = self.tab.reopen(report), self.tab.consent
        self.found, self.frame_stuck = None, False
        self.mouse = Mouse(self.page)
        self.recorder.start_trace(self.tab.own_context)
        open_url_again(self.page, self.url, RETURN_PATIENCE_S, report)

    @property
    def reopened(self) -> int:
        """How often the page was reopened in this run."""
        return self.tab.reopened if self.tab is not None else 0

    def screen(self, selector: str, timeout_s: float = 10, *, fast: bool = False) -> Screen:
        return Screen(self.page, selector, self.recorder, timeout_s, fast=fast)

    def wait(self, seconds: float) -> None:
        """Let the page run for a while (its events still handled, unlike time.sleep)."""
        pause(self.page, seconds * 1000)

    def top_html(self) -> tuple[str, str]:
        """The top page's HTML as it is now, and its address (a game read from its HTML may
        start reading it while its element is looked for)."""
        frame = self.page.main_frame
        return content(frame), frame.url

    def top_resources(self, urls: list[str], most_bytes: int) -> Soon:
        """The bytes of `urls` as the top page loaded them, asked now and answered while the
        bot makes its next calls (answer.page_resources)."""
        return page_resources(self.page, urls, most_bytes)

    def find_game(self, spec: GameSpec, report: Callable[[str], None] = lambda line: None
                  ) -> Found:
        """The game's element in whatever frame holds it, the way to it cleared (what was done
        on the way reported, a line each, then and later in the game); the session's mouse is
        made again to check, before every press, that nothing has come over the game since. A
        search that takes a while says what it waits for, and for how long."""
        show = self._show_press if self.recorder.wants_frames() else None
        found = find_game(self.page, spec, Clearance(self.consent, report, show),
                          selector=self.game_selector, timeout_s=self.find_timeout_s)
        self._show_found(spec, found)
        self.found = found
        self.mouse = Mouse(self.page, guard=found.way.guard, others=lambda: len(found.way.cleared))
        found.way.before_press = self.mouse.finish
        return found

    def _show_found(self, spec: GameSpec, found: Found) -> None:
        """The page as the game was found on it, annotated for --debug-dir and --report: the
        game's element, every other element looked at and why it was not the game, and what
        was answered or pressed on the way."""
        if not self.recorder.wants_frames() or (grab := self._page_grab()) is None:
            return
        marks = [_mark(grab, box, verdict, (0, 0, 255)) for box, verdict in found.passed_over]
        marks.append(_mark(grab, found.candidate.box, f"the game: {spec.name}", (0, 160, 0)))
        marks += lines(grab, found.cleared, (160, 0, 160))
        self.recorder.annotated(grab, "found-the-game", marks)

    def _show_press(self, button: ElementHandle, what: str) -> None:
        """A button the bot is about to press outside the game (a consent dialog's, a
        cover's), boxed on the page (in whatever frame) and named."""
        try:
            where = box(button)
        except Error:
            return
        if where is None or (grab := self._page_grab()) is None:
            return
        self.recorder.annotated(grab, what, [_mark(grab, Box.of(where), what, (160, 0, 160))])

    def _page_grab(self) -> Grab | None:
        """The whole viewport as a Grab (page coordinates), through the Camera (a capture at
        device resolution would misroute later clicks into cross-site frames); None when the
        page went."""
        size = self.page.viewport_size
        if size is None:
            return None
        box = {"x": 0, "y": 0, "width": size["width"], "height": size["height"]}
        try:
            png = Camera(self.page).shoot(box)
        except Error:
            return None  # a page that went meanwhile: the run says so next
        try:
            picture = decode_page_picture(png, "a screenshot of the page")
        except WebbotError:
            return None
        return Grab(picture, Box.of(box))

    def game_screen(self, spec: GameSpec, timeout_s: float = 10, *, fast: bool = False,
                    streamed: bool = False, stream_format: str | None = None,
                    report: Callable[[str], None] = lambda line: None) -> Screen:
        """A Screen on the game found on the page; what was done on the way (a consent
        dialog declined, an ad skipped) is reported, a line each, and so is what is cleared
        later in the game. `streamed`: its looks come from the page's screencast
        (webbot.stream) where the browser has one, its frames in `stream_format` (png or jpeg;
        the session's by default). Its pictures wait for the session's mouse (the one made
        for this game) and clear what has come over the game first."""
        found = self.find_game(spec, report)
        mouse = self.mouse
        return Screen(self.page, found.candidate.name, self.recorder, timeout_s, fast=fast,
                      element=found.candidate.element,
                      stream=self.screencast(report, stream_format) if streamed else None,
                      acted_at=lambda: mouse.acted_at, before_capture=found.way.watch,
                      seen=found.candidate.grabbed)

    def screencast(self, report: Callable[[str], None], image_format: str | None = None
                   ) -> FrameStream | None:
        """The page's screencast, started once a page (again on a page opened anew), its
        frames in `image_format` (the session's stream_format by default)."""
        if self.stream is not None and self.stream.page is self.page:
            return self.stream
        if self.stream is not None:
            self.stream.stop()
            self.stream = None
        if self.streamless:
            return None
        stream = FrameStream(self.page, image_format or self.stream_format, self.stream_quality)
        if stream.start():
            self.stream = stream
        else:
            self.streamless = True
            report("no screencast from this browser: pictures are taken one at a time")
        return self.stream


@contextmanager
def game_session(options: RunOptions, fixture_path: str) -> Iterator[Session]:
    """Open `options.url`, or `fixture_path` on a freshly started fixture server."""
    recorder = Recorder(options.debug_dir, options.report, options.keep_frames)
    try:
        with ExitStack() as stack:
            url = options.url
            connect = options.browser.connect
            profile = options.browser.profile if not connect else None
            phases = recorder.phases
            # The run's end, as its start: the browser, the server and the lock let go of.
            stack.callback(phases.end, "closing")
            if profile is not None:
                with phases("profile"):
                    stack.enter_context(profile_lock(profile))  # (open_tab's is the same hold)
            if url is None:
                # Where the replicas' progress is kept: the profile, or the user's browser.
                keeps = users_browser_data() if connect and is_cdp_endpoint(connect) else profile
                with phases("replica server"):
                    server = stack.enter_context(replica_server(keeps))
                url = urljoin(server.url, fixture_path)
            read_rules_ahead()
            with phases("browser start"):
                tab = stack.enter_context(open_tab(options.browser))
            stack.callback(phases.begin, "closing")  # (an ExitStack's last in, first out)
            recorder.start_trace(tab.own_context)
            stack.callback(recorder.stop_trace)
            session = Session(tab.page, url, recorder, tab.consent, options.game_selector,
                              options.find_timeout_s, tab, options.max_recoveries)
            try:
                # (A page that does not load cannot show the game: given up on by the search's
                # deadline too, where the user set it shorter.)
                with phases("page load"):
                    open_url(tab.page, url, min(OPEN_S, options.find_timeout_s))
            except Unanswered:
                raise  # a server that does not answer ends the run here, within its deadline
            except WebbotError as exc:
                # A page lost in its first load (a renderer killed) is opened again, counted
                # with the run's recoveries.
                if not Recovery(session, report=lambda line: None)(exc):
                    raise
            try:
                yield session
            except WebbotError:
                if not session.stuck:  # (a picture of a stuck page would wait for nothing)
                    recorder.page_shot = full_page(session.page)
                raise
    except WebbotError as exc:
        if ctrl_c_heard():  # the browser went with the user's Ctrl-C
            _interrupted(options, recorder)
            raise KeyboardInterrupt from exc
        if options.report is not None:
            options.report.failed(recorder.last_grab.image if recorder.last_grab else None,
                                  recorder.page_shot)
        # Without a picture or a debug folder there is nothing worth a folder: the line says
        # it all.
        if recorder.last_grab is not None or recorder.page_shot or options.debug_dir:
            # (the traceback in details.txt: where in the bot the run ended, for a report)
            where = recorder.save_failure(str(exc), traceback.format_exc())
            kept = ", ".join(name for name, there in (
                ("last frame", recorder.last_grab is not None),
                ("page", bool(recorder.page_shot))) if there)
            kept = f"{kept} and reason" if kept else "reason"
            exc.args = (f"{exc} ({kept} saved in {where})",)
        raise
    except KeyboardInterrupt:
        _interrupted(options, recorder)
        raise
    except Exception as exc:
        reason = f"unexpected {type(exc).__name__}: {first_line(exc)}"
        where = recorder.save_failure(reason, traceback.format_exc())
        raise WebbotError(f"{reason} (details saved in {where})") from exc
    finally:
        recorder.close()  # the frames still queued written (the report's too) before its end
        write_if_asked(recorder.phases)


def _interrupted(options: RunOptions, recorder: Recorder) -> None:
    """Ctrl-C: the report shows where the run was."""
    if options.report is not None:
        options.report.failed(recorder.last_grab.image if recorder.last_grab else None, None)


def _on_stderr(line: str) -> None:
    print(line, file=sys.stderr)


def replica_server(profile: Path | None, say: Callable[[str], None] = _on_stderr
                   ) -> FixtureServer:
    """The bundled replicas' server. For a kept profile (or the user's browser: its folder of
    the bot's data), on the port it was served on before (a page's storage belongs to its
    origin, port included: the games' progress is there), remembered in that folder; a busy
    port is said, and the games start afresh on another."""
    if profile is None:
        return FixtureServer()
    port = remembered_port(profile)
    try:
        server = FixtureServer(port=port or 0)
    except WebbotError:
        say(f"the port {port} the profile's games were served on is busy: they start afresh "
            "on another")
        server = FixtureServer()
    remember_port(profile, server.port)
    return server


def _mark(grab: Grab, box: Box, text: str, colour: tuple[int, int, int]) -> Mark:
    """A box in page coordinates marked on a grab of the viewport."""
    scale = grab.scale
    return Mark(box.x * scale, box.y * scale, box.width * scale, box.height * scale, text,
                colour)
