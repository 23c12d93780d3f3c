"""Checked command-line values: bounded finite numbers and URLs of the schemes that can work.

click turns a refusal here into `webbot: error: Invalid value for '--x': ...` and exit 2.
"""

from __future__ import annotations

import math
from urllib.parse import urlsplit

import click


class Finite(click.FloatRange):
    """A float in [low, high] that is a real number (click's FloatRange lets nan through)."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number", param, ctx)
        return number


class Url(click.ParamType):
    """A URL whose scheme is one of `schemes`, with a host where the scheme needs one."""

    name = "url"

    def __init__(self, schemes: tuple[str, ...]) -> None:
        self.schemes = schemes

    def convert(self, value, param, ctx):
        text = str(value).strip()
        try:
            parts = urlsplit(text)
            port = parts.port  # a port that is not a number 0-65535 raises here
        except ValueError as exc:
            self.fail(f"{value!r} is not a URL ({exc})", param, ctx)
        if parts.scheme not in self.schemes:
            starts = ", ".join(f"{scheme}://" for scheme in self.schemes)
            self.fail(f"{value!r}: expected a URL starting with one of {starts}", param, ctx)
        if parts.scheme != "file" and not parts.hostname:
            self.fail(f"{value!r} has no host", param, ctx)
        if port == 0 or any(c.isspace() or ord(c) < 32 for c in text):
            self.fail(f"{value!r} is not a usable URL", param, ctx)
        if len(text) > 8192:
            self.fail("the URL is longer than 8192 characters", param, ctx)
        return text


PAGE_URL = Url(("http", "https", "file"))
BROWSER_ENDPOINT = Url(("ws", "wss", "http", "https"))
