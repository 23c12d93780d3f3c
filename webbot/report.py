"""`--report FILE`: one self-contained HTML page of a run, to look at rather than read: what
the run printed (its lines and its table, as the terminal showed them), a timeline of the
annotated frames it kept (each shown at full size when clicked), and for a failure the reason,
the last frame and the page; for a run stopped with Ctrl-C, what it did until then."""

from __future__ import annotations

import base64
import html
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from webbot import folders
from webbot.phases import Phases, whose
from webbot.shown import shown, shown_name
from webbot.words import counted

# The page runs no script and loads nothing but its own pictures and styles, so a string that
# slipped through as HTML could still do nothing there.
POLICY = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; "
          "form-action 'none'")
MAX_FRAMES = 200  # the latest annotated frames; a long grind keeps its last ones


@dataclass
class RunReport:
    """What a run's report is made of, gathered while it runs."""

    path: Path
    frames: deque[tuple[str, bytes]] = field(default_factory=lambda: deque(maxlen=MAX_FRAMES))
    dropped: int = 0  # frames older than the MAX_FRAMES kept
    last_frame: bytes | None = None  # PNG, on a failure
    page_shot: bytes | None = None  # PNG of the whole page, on a failure
    started: float = field(default_factory=time.time)
    phases: Phases = field(default_factory=Phases)  # charged by the play loop (webbot.play)
    summary: str = ""  # what the run did, in a line (its table's title), set by the game
    looks: int = 0  # pictures of the game the bot looked at

    def frame(self, label: str, image: np.ndarray) -> None:
        ok, png = cv2.imencode(".png", image)
        if ok:
            self.dropped += len(self.frames) == self.frames.maxlen
            self.frames.append((label, png.tobytes()))

    def failed(self, last_frame: np.ndarray | None, page_shot: bytes | None) -> None:
        if last_frame is not None:
            ok, png = cv2.imencode(".png", last_frame)
            self.last_frame = png.tobytes() if ok else None
        self.page_shot = page_shot

    def write(self, command: str, output: str, failure: str | None,
              interrupted: bool = False) -> None:
        """The page: `output` is what the run printed, as text (escaped here, as everything
        the page embeds: page text reaches it through the run's lines). `interrupted`: the
        run was stopped by the user (Ctrl-C), not by a failure."""
        command = shown_name(command)  # the user's names and options, as text
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.started))
        seconds = time.time() - self.started
        if interrupted:
            verdict = (f'<p class="failed">Interrupted (Ctrl-C) after {seconds:.1f} s.</p>'
                       f"<p>Until then: {html.escape(shown(self.so_far(), None))}.</p>")
        elif failure:
            verdict = f'<p class="failed">Failed: {html.escape(shown(failure, None))}</p>'
        else:
            verdict = '<p class="passed">Finished without an error.</p>'
        parts = [f"<h1>webbot report</h1><p><code>{html.escape(command)}</code>, started "
                 f"{when}, {seconds:.1f} s.</p>", verdict,
                 f"<h2>What it printed</h2>{printed(output)}", _chart(self.phases, seconds)]
        if failure or interrupted:
            parts.append("<h2>Where it stopped</h2>")
            parts += [_figure(png, caption) for png, caption in
                      ((self.last_frame, "the last frame the bot saw"),
                       (self.page_shot, "the whole page")) if png]
        parts.append(f"<h2>Frames ({len(self.frames)} annotated"
                     + (f", the latest; {self.dropped} earlier not kept" if self.dropped else "")
                     + ")</h2>")
        if self.frames:
            parts.append("<p>Click a frame to see it at full size.</p>")
        parts += [_figure(png, label) for label, png in self.frames]
        # (private to the user: it shows the pages the run saw)
        folders.write_private(self.path, page(f"webbot: {command}", "\n".join(parts)).encode())

    def so_far(self) -> str:
        """What the run had done, in words: the game's own line, the pictures and frames."""
        frames = len(self.frames) + self.dropped
        parts = [self.summary or "no game's account of it yet",
                f"{counted(self.looks, 'picture')} of the game looked at",
                f"{counted(frames, 'annotated frame')} kept" + " (below)" * bool(frames)]
        return "; ".join(parts)


def page(title: str, body: str) -> str:
    """A whole report page around `body` (HTML made here, everything in it escaped)."""
    return PAGE.format(policy=POLICY, title=html.escape(shown(title, limit=None)), body=body)


def printed(output: str) -> str:
    """A run's terminal output in the page: text, escaped, its control characters shown."""
    return f"<pre>{html.escape(shown(output, limit=None))}</pre>"


def _chart(phases: Phases, seconds: float) -> str:
    """Where the run's time went, as bars: its parts (webbot.phases: the browser's start, the
    page's load, the run loop's phases with a game's own nested in them, the closing), each
    said as the game's or ours, and the rest (the command's own start and tables)."""
    spent = dict(phases.seconds)
    spent["other (the command's start, its tables)"] = max(0.0, seconds - phases.total())
    rows = []
    for name, spent_s in sorted(spent.items(), key=lambda item: -item[1]):
        name = f"{name} ({whose(name)})" if name in phases.seconds else name
        share = spent_s / seconds if seconds > 0 else 0.0
        rows.append(f'<tr><td>{html.escape(name)}</td><td class="bar"><div style="width:'
                    f'{100 * share:.1f}%"></div></td><td>{spent_s:.1f} s ({share:.0%})</td></tr>')
    return f'<h2>Where the time went</h2><table class="phases">{"".join(rows)}</table>'


def _figure(png: bytes, caption: str) -> str:
    """A picture, shrunk to fit beside others; a click shows it at full size over the page,
    another click puts it back. Done with a checkbox and CSS: the page runs no script, and a
    browser will not open a data: URL in a tab of its own."""
    data = base64.b64encode(png).decode("ascii")
    caption = html.escape(shown(caption))  # a frame's label may hold page text
    return (f'<figure><label class="zoom" title="full size: click (click again to close)">'
            f'<input type="checkbox"><span><img src="data:image/png;base64,{data}" '
            f'alt="{caption}"></span></label><figcaption>{caption}</figcaption></figure>')


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; max-width: 1300px; }}
.passed {{ color: #070; }} .failed {{ color: #b00; font-weight: bold; }}
figure {{ display: inline-block; margin: 0 1em 1em 0; vertical-align: top; }}
.zoom {{ cursor: zoom-in; }}
.zoom img {{ max-width: 620px; border: 1px solid #ccc; display: block; }}
.zoom input {{ position: absolute; opacity: 0; }}
.zoom input:focus-visible + span img {{ outline: 3px solid #06c; }}
.zoom input:checked + span {{ position: fixed; inset: 0; z-index: 1; overflow: auto;
  background: rgba(0, 0, 0, 0.85); cursor: zoom-out; }}
.zoom input:checked + span img {{ max-width: none; margin: auto; }}
figcaption {{ font-family: monospace; font-size: 90%; }}
pre {{ white-space: pre; overflow-x: auto; }}
.phases td {{ padding: 0.1em 0.6em; }}
.phases .bar {{ width: 400px; }} .phases .bar div {{ background: #4a7; height: 1em; }}
</style></head>
<body>
{body}
</body></html>
"""
