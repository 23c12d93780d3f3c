"""The page the bot plays in, and the way to get it back when it is lost, in each of the three
browsers a run may have: one it launched (a throwaway context), one it launched on a kept
profile (the browser's own context), and one it connected to (`--connect`: the user's
context, or a fresh one of its own in a `playwright run-server`'s)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext, suppress

from playwright.sync_api import Browser, BrowserContext, Error, Page, Playwright

from webbot import browser as chromium
from webbot import consent
from webbot.answer import NoAnswer, answered, cdp_session, detach, evaluate
from webbot.browser import (
    browser_pid,
    close_quietly,
    end_browser,
    is_cdp_endpoint,
    new_page,
    newest_browser,
    page_in,
    playwright_driver,
    say,
    start_browser,
)
from webbot.consent import Consent
from webbot.errors import WebbotError
from webbot.options import BrowserOptions
from webbot.profile import profile_lock
from webbot.stream import DEVTOOLS_TIMEOUT_MS


class Tab:
    """One face for the three: Playwright tells of a crashed renderer, a closed page or a
    browser gone as an event; `lost` says which happened, `reopen` gives a fresh page (in a
    fresh browser when the old one is gone). `consent` is the consent chain of the page's
    context (webbot.consent), made with it; `sandbox` how the browser runs (None: as a remote
    one was started); `pid` the browser's process when it is ours."""

    consent: Consent
    page: Page
    pid: int | None = None
    sandbox: chromium.Sandbox | None = None

    def __init__(self, playwright: Playwright, options: BrowserOptions,
                 report: Callable[[str], None] = say) -> None:
        self.playwright, self.options, self.report = playwright, options, report
        self.reopened = 0
        self.stuck = False  # the page was last found not answering (see lost)
        self._start_browser()

    # -- what each kind of browser does its own way ----------------------------------------
    def _start_browser(self) -> None:
        """Start (or reach) the browser and open the page in it."""
        raise NotImplementedError

    def _connected(self) -> bool:
        """Whether the browser is still there."""
        raise NotImplementedError

    def _page_in_context(self, context: BrowserContext) -> Page | None:
        """A new page in `context`, else wherever this browser may give one (None: nowhere,
        a fresh browser is needed); NoAnswer when the browser does not answer."""
        raise NotImplementedError

    @property
    def own_context(self) -> BrowserContext | None:
        """The page's context when it is the bot's own (a trace may record it); None in the
        user's browser, whose other tabs are not the bot's to record."""
        return self.page.context

    def close(self) -> None:
        """Close what the bot opened."""
        raise NotImplementedError

    # -- the same for all ------------------------------------------------------------------
    def _watched(self, page: Page) -> Page:
        self.crashed = False
        page.on("crash", self._crashed)
        return page

    def _crashed(self, page: Page) -> None:
        self.crashed = True
        # A DevTools call under way on a crashed page never returns (a screenshot, say);
        # closing the page ends it with an error. Chromium may go down with it: reopen copes.
        close_quietly(page)

    def lost(self) -> str | None:
        """What happened to the page, if it is gone: None while it is there."""
        if self.crashed:
            return "the page crashed (its renderer process ended)"
        if not self._connected():
            return "the browser is gone"
        if self.page.is_closed():
            return "the page was closed"
        try:  # a crash not heard of yet shows on the next call
            evaluate(self.page, "1", seconds=chromium.ALIVE_S)
        except NoAnswer:
            self.stuck = True
            close_quietly(self.page)  # (Chromium closes a page whose script is stuck)
            return f"the page stopped answering (nothing within {chromium.ALIVE_S:g} s)"
        except Error as exc:
            text = str(exc).lower()
            if "crash" in text:
                return "the page crashed (its renderer process ended)"
            if "closed" in text:
                return "the page was closed"
        return None

    def reopen(self, report: Callable[[str], None] = lambda line: None) -> Page:
        """A fresh page, in the same browser context when the browser is still there: its
        cookies and storage stay, as they do when a person reloads a crashed tab (a game may
        keep its progress there, a site its consent). A browser that does not give the page
        within REOPEN_PATIENCE_S is ended (a local one, by its pid), and a fresh one started
        (said in one line)."""
        page, stuck = None, False
        if self._connected():
            try:
                page = self._page_in_context(self.page.context)
            except NoAnswer:
                stuck = True
                pid = self.pid or newest_browser()
                if pid is not None:
                    end_browser(pid)
                report(f"the browser gave no new page within {chromium.REOPEN_PATIENCE_S:g} "
                       "s: it was ended, and a fresh one started")
        if page is None or stuck or not self._connected():
            self.close()
            self._start_browser()
        else:
            close_quietly(self.page)  # (already gone, as a crashed page is)
            self.page = self._watched(page)
        self.reopened += 1
        self.stuck = False
        return self.page


class LaunchedTab(Tab):
    """A Chromium the bot launched, its page in a throwaway context."""

    def _start_browser(self) -> None:
        started, self.sandbox = start_browser(self.playwright, self.options, self.report)
        assert isinstance(started, Browser)
        self.browser = started
        self.pid = browser_pid(started)
        page, self.consent = new_page(started, self.options)
        self.page = self._watched(page)

    def _connected(self) -> bool:
        return self.browser.is_connected()

    def _page_in_context(self, context: BrowserContext) -> Page | None:
        try:
            return page_in(context)
        except NoAnswer:
            raise
        except WebbotError:  # the context went with its page: a fresh one
            return self._page_in_fresh_context()

    def _page_in_fresh_context(self) -> Page | None:
        try:
            page, self.consent = new_page(self.browser, self.options)
        except NoAnswer:
            raise
        except (Error, WebbotError):
            return None
        return page

    def close(self) -> None:
        close_quietly(self.browser)


class ProfileTab(Tab):
    """A Chromium the bot launched on a kept profile: the page in the browser's one context,
    whose cookies and storage are the profile's."""

    def _start_browser(self) -> None:
        started, self.sandbox = start_browser(self.playwright, self.options, self.report)
        assert isinstance(started, BrowserContext)
        self.context = started
        self._closed = False
        started.on("close", self._context_closed)
        self.consent = consent.install(started)  # (its init script reaches the open page too)
        self.pid = newest_browser(self.options.profile) or newest_browser()
        self.page = self._watched(started.pages[0] if started.pages else page_in(started))

    def _context_closed(self, context: BrowserContext) -> None:
        self._closed = True

    def _connected(self) -> bool:
        return not self._closed

    def _page_in_context(self, context: BrowserContext) -> Page | None:
        try:
            return page_in(context)
        except NoAnswer:
            raise
        except WebbotError:
            return None  # the profile's one context went: a fresh browser on it

    def close(self) -> None:
        close_quietly(self.context)


class ConnectedTab(LaunchedTab):
    """A remote browser (`--connect`): in a user's own Chromium (a DevTools endpoint), a tab
    of the bot's in the user's context, with their cookies and logins; in a `playwright
    run-server`'s, which has no context of the user's, a fresh context of the bot's own."""

    _said_no_context = False  # (said once a process)

    def _start_browser(self) -> None:
        started, self.sandbox = start_browser(self.playwright, self.options, self.report)
        assert isinstance(started, Browser)
        self.browser, self.pid = started, None
        self.users = is_cdp_endpoint(self.options.connect or "") and bool(started.contexts)
        if self.users:
            self.page = self._watched(self._users_tab(started.contexts[0]))
            return
        if not ConnectedTab._said_no_context:
            ConnectedTab._said_no_context = True
            self.report(f"the browser at {self.options.connect} has no context of yours (a "
                        "playwright run-server): the bot plays in a fresh one of its own")
        page, self.consent = new_page(started, self.options)
        self.page = self._watched(page)

    def _users_tab(self, context: BrowserContext) -> Page:
        """A tab of the bot's own in the user's context: the consent chain on it alone (not on
        the user's other tabs), the window's size the bot's, in front and kept from being
        throttled as a hidden tab would be."""
        page = page_in(context)
        self.consent = consent.install(page)
        width, height = self.options.viewport
        with suppress(Error):
            answered(page, lambda own: own.set_viewport_size({"width": width,
                                                              "height": height}),
                     "the window's size")
            answered(page, lambda own: own.bring_to_front(), "a tab to the front")
            session = cdp_session(page)
            session.send("Emulation.setFocusEmulationEnabled", {"enabled": True},
                         timeout=DEVTOOLS_TIMEOUT_MS)
            detach(session)
        return page

    def _page_in_context(self, context: BrowserContext) -> Page | None:
        if not self.users:
            return super()._page_in_context(context)
        try:
            return self._users_tab(context)
        except NoAnswer:
            raise
        except WebbotError:
            return self._page_in_fresh_context()

    @property
    def own_context(self) -> BrowserContext | None:
        return None if self.users else self.page.context

    def close(self) -> None:
        """In the user's browser, the bot's own tab alone (the browser and its other tabs
        stay: closing a connection leaves them be)."""
        if self.users:
            close_quietly(self.page)
        close_quietly(self.browser)


def new_tab(playwright: Playwright, options: BrowserOptions,
            report: Callable[[str], None] = say) -> Tab:
    """The tab for the browser `options` ask for."""
    if options.connect:
        return ConnectedTab(playwright, options, report)
    if options.profile is not None:
        return ProfileTab(playwright, options, report)
    return LaunchedTab(playwright, options, report)


@contextmanager
def open_tab(options: BrowserOptions, report: Callable[[str], None] = say) -> Iterator[Tab]:
    """A Tab in a fresh browser: on `options.profile`, held for the run (webbot.profile), else
    in a throwaway context; everything is closed on exit. `report` hears what the user should
    know of the browser (that it runs without its sandbox, once)."""
    on_profile = options.profile is not None and not options.connect
    with profile_lock(options.profile) if on_profile else nullcontext(), \
            playwright_driver() as playwright:
        tab = new_tab(playwright, options, report)
        try:
            yield tab
        finally:
            tab.close()


@contextmanager
def open_page(options: BrowserOptions) -> Iterator[Page]:
    """A fresh page in a fresh browser context; everything is closed on exit."""
    with open_tab(options) as tab:
        yield tab.page
