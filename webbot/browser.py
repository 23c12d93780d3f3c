"""Starting Debian's Chromium through Playwright, or reaching a remote browser."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from playwright.sync_api import Browser, Error, Page, Playwright, sync_playwright

from webbot import consent
from webbot.errors import WebbotError, first_line

CHROMIUM_ARGS = [
    "--disable-gpu",
    "--disable-background-networking",  # the machines have no internet: avoid refused lookups
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
    "--force-color-profile=srgb",  # pixel colours must match the measured ones
]

# Where a remote `playwright run-server` finds its browser; empty to let the server choose.
REMOTE_EXECUTABLE = os.environ.get("WEBBOT_REMOTE_CHROMIUM", "/usr/bin/chromium")


@dataclass(frozen=True)
class BrowserOptions:
    headed: bool = False
    slow_mo: float = 0
    connect: str | None = None
    viewport: tuple[int, int] = (1280, 800)
    device_scale_factor: float = 1


def find_chromium() -> str:
    """Path of the system Chromium: $WEBBOT_CHROMIUM, or Debian's package."""
    override = os.environ.get("WEBBOT_CHROMIUM")
    candidates = [override] if override else ["/usr/bin/chromium", "chromium", "chromium-browser"]
    for candidate in candidates:
        found = shutil.which(candidate)
        if found:
            return found
    where = override or "/usr/bin/chromium"
    raise WebbotError(f"Chromium not found at {where}: install Debian's package (apt-get install "
                      "chromium) or set WEBBOT_CHROMIUM")


def _is_cdp_endpoint(url: str) -> bool:
    return url.startswith(("http://", "https://")) or "/devtools/browser/" in url


def open_browser(playwright: Playwright, options: BrowserOptions) -> Browser:
    """Launch the local Chromium, or connect to the endpoint in `options.connect`."""
    if options.connect:
        return _connect(playwright, options)
    executable = find_chromium()
    try:
        return playwright.chromium.launch(
            executable_path=executable,
            headless=not options.headed,
            slow_mo=options.slow_mo,
            args=CHROMIUM_ARGS,
        )
    except Error as exc:
        reason = first_line(exc)
        if "DISPLAY" in str(exc) or "X server" in str(exc):
            reason = "no display for --headed (run under xvfb-run, or drop --headed)"
        raise WebbotError(f"Chromium ({executable}) failed to start: {reason}") from None


def _connect(playwright: Playwright, options: BrowserOptions) -> Browser:
    url = options.connect or ""
    try:
        if _is_cdp_endpoint(url):
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
        raise WebbotError(f"browser endpoint {url} did not answer: {first_line(exc)}") from None


@contextmanager
def open_page(options: BrowserOptions) -> Iterator[Page]:
    """A fresh page in a fresh browser context; everything is closed on exit."""
    with sync_playwright() as playwright:
        browser = open_browser(playwright, options)
        try:
            width, height = options.viewport
            context = browser.new_context(
                viewport={"width": width, "height": height},
                device_scale_factor=options.device_scale_factor,
            )
            consent.install(context)  # before the first page: it runs in every frame
            yield context.new_page()
        finally:
            browser.close()


def open_url(page: Page, url: str, timeout_s: float = 30) -> None:
    """Navigate, turning refused connections and HTTP errors into one-line errors."""
    try:
        response = page.goto(url, wait_until="load", timeout=timeout_s * 1000)
    except Error as exc:
        text = str(exc)
        if "ERR_CONNECTION_REFUSED" in text:
            reason = "connection refused (is the server running?)"
        elif "ERR_NAME_NOT_RESOLVED" in text:
            reason = "host name not found"
        elif "ERR_FILE_NOT_FOUND" in text:
            reason = "no such file"
        elif "ERR_UNSAFE_PORT" in text:
            reason = "Chromium refuses to open that port (it is kept for other protocols)"
        elif "Timeout" in text:
            reason = f"no answer within {timeout_s:g} s"
        else:
            reason = first_line(exc)
        raise WebbotError(f"cannot open {url}: {reason}") from None
    if response is not None and response.status >= 400:
        raise WebbotError(f"cannot open {url}: HTTP {response.status}")


def full_page(page: Page) -> bytes | None:
    """A PNG of the whole page (for a failure record), or None when it cannot be taken."""
    try:
        return page.screenshot(full_page=True, timeout=10_000)
    except Error:
        return None


def chromium_version(page: Page) -> str:
    return page.context.browser.version if page.context.browser else "unknown"

