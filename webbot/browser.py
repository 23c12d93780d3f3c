"""Starting Debian's Chromium through Playwright, or reaching a remote browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import psutil
from playwright.sync_api import Browser, BrowserContext, Error, Page, Playwright, sync_playwright

from webbot import consent
from webbot.answer import NoAnswer, answered, captures_settled, detach, with_defaults
from webbot.cache import keep_node_compile_cache
from webbot.consent import Consent
from webbot.deadline import Deadline
from webbot.driver import stop_within, take_started
from webbot.errors import WebbotError, first_line
from webbot.options import BrowserOptions
from webbot.profile import ProfileInUse, profile_lock
from webbot.shown import shown_name
from webbot.stream import DEVTOOLS_TIMEOUT_MS

CHROMIUM_ARGS = [
    "--disable-gpu",
    "--disable-background-networking",  # the machines have no internet: avoid refused lookups
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
    "--force-color-profile=srgb",  # sRGB, as the templates and colour limits assume
    # Text hinted as Debian's fontconfig has Chromium hint it: the headless shell takes its
    # hinting from this switch alone (full by default, which draws Puzlogic's digits other
    # than the bundled templates); Chromium itself ignores it.
    "--font-render-hinting=slight",
]
CHROMIUM = "/usr/bin/chromium"
# Debian's build of Chromium for pages without a window (package chromium-headless-shell, the
# browser Playwright itself runs headless): it starts in about a third of Chromium's time and
# CPU (scripts/bench_browser_start.py) and draws the same pixels. The binary itself, not the
# package's /usr/bin wrapper, which runs it as a shell's child: Playwright would take the
# shell for the browser, and a browser ended by its pid (one that hangs) could go on running.
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"

# Where a remote `playwright run-server` finds its browser; empty to let the server choose.
REMOTE_EXECUTABLE = os.environ.get("WEBBOT_REMOTE_CHROMIUM", CHROMIUM)

# How long a new page (or a close) may wait on the browser: Playwright's new_page and close
# have no timeout of their own, and a Chromium whose renderers were killed may never answer.
REOPEN_PATIENCE_S = 15.0
TRACE_WRITE_S = 60.0  # a trace of a long run is tens of megabytes
LAUNCH_TIMEOUT_MS = 60_000  # a browser not started by then will not start
# How long the page may take to say it is there. A page whose script never yields answers
# nothing (no script, picture or mouse event): it is as lost as a crashed one.
ALIVE_S = 5.0


def find_chromium(headless: bool = False) -> str:
    """Path of the system Chromium: $WEBBOT_CHROMIUM, or Debian's package; `headless`, its
    headless shell first where it is installed."""
    override = os.environ.get("WEBBOT_CHROMIUM")
    candidates = ([override] if override else
                  [HEADLESS_SHELL] * headless + [CHROMIUM, "chromium", "chromium-browser"])
    for candidate in candidates:
        found = shutil.which(candidate)
        if found:
            return found
    where = override or CHROMIUM
    raise WebbotError(f"Chromium not found at {where}: install Debian's package (apt-get install "
                      "chromium) or set WEBBOT_CHROMIUM")


def chromium_for(options: BrowserOptions) -> str:
    """The local Chromium a run with `options` starts: the headless shell unless it has a
    window."""
    return find_chromium(headless=not options.headed)


@dataclass(frozen=True)
class Sandbox:
    """Whether Chromium runs in its own sandbox (its renderers kept from the rest of the
    machine), and why not when it does not."""

    on: bool
    why_off: str = ""

    def __str__(self) -> str:
        return "on" if self.on else f"off ({self.why_off})"


# Kernel switches that turn user namespaces (which Chromium's sandbox is built on) off.
USER_NAMESPACE_SWITCHES = {"/proc/sys/user/max_user_namespaces": "user.max_user_namespaces",
                           "/proc/sys/kernel/unprivileged_userns_clone":
                               "kernel.unprivileged_userns_clone"}


def user_namespaces_off() -> str | None:
    """Why this machine gives no user namespaces, or None when it does (as far as its
    switches tell: Chromium's own start is the test)."""
    for path, name in USER_NAMESPACE_SWITCHES.items():
        try:
            value = Path(path).read_text().strip()
        except OSError:
            continue  # not this kernel's switch
        if value == "0":
            return f"no user namespaces here: {name} is 0"
    return None


def sandbox_plan(euid: int | None = None, namespaces_off: str | None = None) -> Sandbox:
    """The sandbox Chromium is started with here, before trying: off as root (Chromium
    refuses it to root) or without user namespaces, else on (to be tried)."""
    if euid is None:
        euid = os.geteuid() if hasattr(os, "geteuid") else -1
    if euid == 0:
        return Sandbox(False, "running as root")
    if namespaces_off:
        return Sandbox(False, namespaces_off)
    return Sandbox(True)


# Set once Chromium would not start with its sandbox in this process: later browsers (a
# recovery's, a soak worker's next game's) start without it, and it is not said again.
_sandbox_refused: Sandbox | None = None


def say(line: str) -> None:
    print(line, file=sys.stderr)


def is_cdp_endpoint(url: str) -> bool:
    """A Chromium DevTools endpoint (a browser of the user's, its contexts theirs), not a
    playwright run-server's."""
    return url.startswith(("http://", "https://")) or "/devtools/browser/" in url


def open_browser(playwright: Playwright, options: BrowserOptions,
                 report: Callable[[str], None] = say) -> Browser:
    """Launch the local Chromium, or connect to the endpoint in `options.connect`."""
    return start_browser(playwright, options, report)[0]


def start_browser(playwright: Playwright, options: BrowserOptions,
                  report: Callable[[str], None] = say
                  ) -> tuple[Browser | BrowserContext, Sandbox | None]:
    """open_browser, and the sandbox the browser runs in (None: a remote browser, started as
    its server chose); with `options.profile` (and no remote browser), the browser's one
    context on that profile. Chromium is started in its sandbox wherever the sandbox_plan
    allows; one that will not start so is started without, said once through `report`."""
    global _sandbox_refused
    if options.connect:
        return _connect(playwright, options), None
    sandbox = _sandbox_refused or sandbox_plan(namespaces_off=user_namespaces_off())
    if not sandbox.on:
        return _launch(playwright, options, sandbox=False), sandbox
    try:
        return _launch(playwright, options, sandbox=True), sandbox
    except SandboxRefused as exc:
        _sandbox_refused = Sandbox(False, f"it could not start here: {exc}")
        report(f"the browser's sandbox could not start here ({exc}): going on without it")
        return _launch(playwright, options, sandbox=False), _sandbox_refused


class SandboxRefused(WebbotError):
    """Chromium would not start with its sandbox (the reason is the message)."""


def _launch(playwright: Playwright, options: BrowserOptions, *, sandbox: bool
            ) -> Browser | BrowserContext:
    """The local Chromium; on `options.profile`, its persistent context there."""
    executable = chromium_for(options)
    common = {"executable_path": executable, "headless": not options.headed,
              "slow_mo": options.slow_mo, "args": CHROMIUM_ARGS, "chromium_sandbox": sandbox}
    try:
        if options.profile is None:
            return playwright.chromium.launch(**common, timeout=LAUNCH_TIMEOUT_MS)
        width, height = options.viewport
        return playwright.chromium.launch_persistent_context(
            options.profile, viewport={"width": width, "height": height},
            device_scale_factor=options.device_scale_factor, **common,
            timeout=LAUNCH_TIMEOUT_MS)
    except Error as exc:
        reason = first_line(exc)
        if "DISPLAY" in str(exc) or "X server" in str(exc):
            drop = ", or drop --headed" if options.window_for == "--headed" else ""
            reason = f"no display for {options.window_for} (run it under xvfb-run{drop})"
        elif "ProcessSingleton" in str(exc) or "profile appears to be in use" in str(exc):
            raise ProfileInUse(f"profile {shown_name(options.profile)} is in use by another "
                               "browser (a Chromium still running on it)") from None
        elif sandbox and (why := _sandbox_reason(str(exc))):
            raise SandboxRefused(why) from None
        raise WebbotError(f"Chromium ({executable}) failed to start: {reason}") from None


def _sandbox_reason(text: str) -> str | None:
    """Chromium's own line about its sandbox in a failed launch's log (else Playwright's),
    without its prefixes; None when the log does not speak of the sandbox."""
    lines = [line for line in text.splitlines() if "sandbox" in line.lower()
             and "<launching>" not in line]
    chromium = [line for line in lines if "[err]" in line]
    if not lines:
        return None
    return re.sub(r"^\s*-?\s*(\[[^\]]*\]\s*)+", "", (chromium or lines)[0]).strip()


def _connect(playwright: Playwright, options: BrowserOptions) -> Browser:
    url = options.connect or ""
    try:
        if is_cdp_endpoint(url):
            return playwright.chromium.connect_over_cdp(url, timeout=15_000,
                                                        slow_mo=options.slow_mo)
        launch = {"headless": not options.headed, "args": CHROMIUM_ARGS}
        if REMOTE_EXECUTABLE:
            launch["executablePath"] = REMOTE_EXECUTABLE
        return playwright.chromium.connect(
            url,
            timeout=15_000,
            slow_mo=options.slow_mo,
            headers={"x-playwright-launch-options": json.dumps(launch)},
        )
    except Error as exc:
        raise WebbotError(f"browser endpoint {url}: {endpoint_problem(first_line(exc))}") \
            from None


# Playwright's words for a browser endpoint that does not answer, and ours.
ENDPOINT_PROBLEMS = (
    ("ECONNREFUSED", "nothing answers there (connection refused)"),
    ("ENOTFOUND", "no such host"),
    ("EAI_AGAIN", "no such host"),
    ("ECONNRESET", "it closed the connection"),
    ("socket hang up", "it closed the connection"),
    ("Timeout", "it did not answer within 15 s"),
    ("Unexpected status 404", "no browser endpoint at that address (HTTP 404)"),
    ("WebSocket error", "no browser endpoint at that address (it answers, but not as one)"),
)


def endpoint_problem(said: str) -> str:
    """Why a browser endpoint did not answer, in our words (Playwright's own, without the
    name of its call, when they are none of those known)."""
    for words, ours in ENDPOINT_PROBLEMS:
        if words in said:
            return ours
    return re.sub(r"^BrowserType\.\w+:\s*", "", said)


def new_page(browser: Browser, options: BrowserOptions) -> tuple[Page, Consent]:
    """A page in a fresh context of `browser`, as the bot plays in: the options' viewport and
    DPR, and the context's consent chain (the library runs in its every frame)."""
    width, height = options.viewport
    context = answered(browser, lambda own: with_defaults(
        own.new_context, viewport={"width": width, "height": height},
        device_scale_factor=options.device_scale_factor), "a new context", REOPEN_PATIENCE_S)
    chain = consent.install(context)  # before the first page: it runs in every frame
    return page_in(context), chain


def page_in(context: BrowserContext) -> Page:
    """A new page in `context`; NoAnswer when the browser gives none within
    REOPEN_PATIENCE_S."""
    tries = 3
    while True:
        try:
            return answered(context, lambda own: own.new_page(), "a new page",
                            REOPEN_PATIENCE_S)
        except Error as exc:  # its renderer died as it started (killed, out of memory)
            tries -= 1
            if "crash" not in str(exc).lower() or not tries:
                raise WebbotError(f"cannot open a page in the browser: {first_line(exc)}"
                                  ) from None


def browser_pid(browser: Browser) -> int | None:
    """The process id of a browser this process launched, from Chromium itself (else the
    newest Chromium started under this process)."""
    try:
        session = answered(browser, lambda own: own.new_browser_cdp_session(),
                           "a DevTools session")
        processes = session.send("SystemInfo.getProcessInfo",
                                 timeout=DEVTOOLS_TIMEOUT_MS)["processInfo"]
        detach(session)
    except (Error, KeyError, NoAnswer):
        return newest_browser()
    return next((each["id"] for each in processes if each.get("type") == "browser"),
                None) or newest_browser()


def newest_browser(profile: Path | None = None) -> int | None:
    """The newest browser process (a Chromium driven through its DevTools pipe, not one of
    its helpers) under this process, if any; with `profile`, the one on that profile (another
    browser under this process, newer by a clock as coarse as the kernel's, is not taken for
    it)."""
    newest = None
    on_profile = f"--user-data-dir={profile}" if profile is not None else None
    for process in psutil.Process().children(recursive=True):
        with suppress(psutil.Error):
            command = process.cmdline()
            if "--remote-debugging-pipe" in command and \
                    not any(part.startswith("--type=") for part in command) and \
                    (on_profile is None or on_profile in command) and \
                    (newest is None or process.create_time() > newest.create_time()):
                newest = process
    return newest.pid if newest is not None else None


def end_browser(pid: int) -> bool:
    """SIGKILL a browser (or Playwright's driver) and every process under it (renderers,
    zygotes, the GPU and utility processes), so that nothing of it is left holding its
    DevTools pipe open: a Playwright call waiting on it then fails. False when it was gone
    already."""
    try:
        browser = psutil.Process(pid)
        tree = [browser, *browser.children(recursive=True)]
    except psutil.Error:
        return False
    _kill(tree)
    return True


def _kill(processes: list[psutil.Process]) -> None:
    """SIGKILL each process, those gone already passed over."""
    for process in processes:
        with suppress(psutil.Error):
            process.kill()


def close_quietly(target: Page | BrowserContext | Browser) -> None:
    """`target.close()`, given up after REOPEN_PATIENCE_S (a stuck browser, ended after);
    nothing when it is gone already."""
    keywords = {"run_before_unload": None} if isinstance(target, Page) else {}
    with suppress(Error, NoAnswer):
        answered(target, lambda own: own.close(reason=None, **keywords), "a close",
                 REOPEN_PATIENCE_S)


@contextmanager
def playwright_driver() -> Iterator[Playwright]:
    """Playwright's driver for the block, its stop bounded: a driver still there STOP_S after
    it was asked to stop (one that a terminal's Ctrl-C reached too may never end; one waiting
    on a browser whose page keeps its renderer busy) is ended by its pid, with the browsers it
    started, and the stop returns."""
    started = take_started()  # (one started ahead of the run's imports, webbot.driver)
    if started is None:
        keep_node_compile_cache()
        manager = sync_playwright()
        started = manager, manager.start()
    manager, playwright = started
    try:
        yield playwright
    finally:
        stop_within(manager, end_browser)


class Unanswered(WebbotError):
    """The server did not answer (refused, reset, timed out, a 5xx): it may come back."""


# Chromium's net errors of a server that is down or restarting, and what they mean.
_UNANSWERED = {
    "ERR_CONNECTION_REFUSED": "connection refused (is the server running?)",
    "ERR_CONNECTION_RESET": "the connection was reset",
    "ERR_CONNECTION_CLOSED": "the connection was closed",
    "ERR_EMPTY_RESPONSE": "the server closed the connection without answering",
}
_FAILED = {
    "ERR_NAME_NOT_RESOLVED": "host name not found",
    "ERR_FILE_NOT_FOUND": "no such file",
    "ERR_UNSAFE_PORT": "Chromium refuses to open that port (it is kept for other protocols)",
}


OPEN_S = 30.0  # for a page to load: a server that takes the connection may never answer


def open_url(page: Page, url: str, timeout_s: float = OPEN_S) -> None:
    """Navigate, turning refused connections and HTTP errors into one-line errors
    (`Unanswered` for those of a server that may come back)."""
    try:
        response = page.goto(url, wait_until="load", timeout=timeout_s * 1000)
    except Error as exc:
        text = str(exc)
        for code, reason in _UNANSWERED.items():
            if code in text:
                raise Unanswered(f"cannot open {url}: {reason}") from None
        if "Timeout" in text:
            _stop_loading(page)
            raise Unanswered(f"cannot open {url}: no answer within {timeout_s:g} s") from None
        if "interrupted by another navigation" in text or "ERR_ABORTED" in text:
            raise Unanswered(f"cannot open {url}: the navigation was cut short (by another, "
                             "such as Chromium reloading its error page; or the address is "
                             "a download)") from None
        reason = next((why for code, why in _FAILED.items() if code in text), first_line(exc))
        raise WebbotError(f"cannot open {url}: {reason}") from None
    if response is not None and response.status >= 500:
        raise Unanswered(f"cannot open {url}: HTTP {response.status}")
    if response is not None and response.status >= 400:
        raise WebbotError(f"cannot open {url}: HTTP {response.status}")


def _stop_loading(page: Page) -> None:
    """Leave a navigation that waits on a server: while it waits, the page answers no script
    (not even the check whether it is still there)."""
    with suppress(Error):
        page.goto("about:blank", timeout=5_000)


def open_url_again(page: Page, url: str, patience_s: float,
                   report: Callable[[str], None]) -> None:
    """open_url after the page was lost: a server that does not answer (restarting, say) is
    tried again every second for `patience_s`, said once. Chromium reloads its own error page
    1 s and 5 s after showing it: a try cut short by that reload is one more try."""
    deadline = Deadline(patience_s)
    said = False
    while True:
        try:
            open_url(page, url)
            return
        except Unanswered as exc:
            if deadline.passed():
                raise Unanswered(f"{exc}, still after {patience_s:g} s of trying again") from None
            if not said:
                report(f"{exc}: trying again for up to {patience_s:g} s")
                said = True
            page.wait_for_timeout(1000)


def start_trace(context: BrowserContext) -> None:
    """A Playwright trace of `context` from now on: its actions and DOM snapshots, no
    screenshots. Playwright's screenshots are a second screencast of the page, which slowed
    Burrito Bison's decisions and filled 50 MB a round; the frames the bot saw are in the
    debug folder, and without them the trace grows with the actions alone (0.1 MB a round:
    scripts/bench_debug_dir.py)."""
    answered(context.tracing, lambda own: with_defaults(own.start, screenshots=False,
                                                        snapshots=True), "a trace's start")


def stop_trace(context: BrowserContext, path: Path) -> None:
    """The trace written to `path`, within TRACE_WRITE_S."""
    answered(context.tracing, lambda own: own.stop(path), "a trace's writing", TRACE_WRITE_S)


def full_page(page: Page) -> bytes | None:
    """A PNG of the whole page (for a failure record), or None when it cannot be taken."""
    try:
        captures_settled(page)
        return page.screenshot(full_page=True, timeout=10_000)
    except (Error, NoAnswer):
        return None


def chromium_version(page: Page) -> str:
    return page.context.browser.version if page.context.browser else "unknown"



def window_on_profile(folder: Path, url: str | None, say: Callable[[str], None]) -> None:
    """A browser window on the profile in `folder` for the user (to sign in to a portal, say),
    until they close it: no game is looked for, nothing is played or recovered."""
    options = BrowserOptions(headed=True, profile=folder, window_for="its window")
    with profile_lock(folder), playwright_driver() as playwright:
        context, _ = start_browser(playwright, options)
        assert isinstance(context, BrowserContext)
        page = context.pages[0] if context.pages else page_in(context)
        if url:
            open_url(page, url)
        say(f"a window on the profile {shown_name(folder)} is open: close it when you are done")
        context.wait_for_event("close", timeout=0)
