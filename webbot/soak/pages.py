"""`webbot soak GAME --report FILE.html`: the soak's own page, a row per game with a link to
each try's report page (webbot.report, made on the worker that played it), kept in a folder
beside it (FILE-games/)."""

from __future__ import annotations

import html
import re
import time
from dataclasses import replace
from pathlib import Path

from webbot import folders
from webbot.report import page, printed
from webbot.shown import shown
from webbot.soak.runner import GameRecord

# The folder of each game's pages: webbot's, as every folder it writes in (webbot.folders).
GAME_PAGES = folders.Kind("folder of a soak's game pages",
                          lambda names: all(re.fullmatch(r"\d{5}-try-\d+\.html", n)
                                            for n in names))


class SoakPages:
    """The soak's report: each game's pages written as its record comes in, the index last."""

    def __init__(self, path: Path, title: str) -> None:
        self.path = path
        self.folder = path.with_name(f"{path.stem}-games")
        self.title = title
        self.started = time.time()
        self.rows: list[tuple[int, str]] = []  # by case number

    def add(self, record: GameRecord) -> None:
        """The game's row, and its tries' pages written out and dropped from the record (a
        long soak keeps none of them in memory)."""
        folders.claim(self.folder, GAME_PAGES)
        links = []
        for number, attempt in enumerate(record.tries, 1):
            outcome = "passed" if attempt.played.passed else "failed"
            if attempt.played.report:
                name = f"{record.case.number:05d}-try-{number}.html"
                folders.write_private(self.folder / name, attempt.played.report.encode())
                links.append(f'<a href="{html.escape(self.folder.name)}/{name}">try {number}'
                             f"</a> ({outcome}, worker {html.escape(attempt.worker)})")
            else:
                links.append(f"try {number} ({outcome}, worker {html.escape(attempt.worker)})")
        record.tries[:] = [replace(t, played=replace(t.played, report="")) for t in record.tries]
        verdict = "passed" if record.passed else "failed"
        reason = html.escape(shown(record.tries[-1].played.reason, limit=None))
        number = record.case.number
        self.rows.append((number, f'<tr class="{verdict}"><td>{number}</td><td>'
                                  f"{html.escape(shown(record.case.name))}</td><td>{verdict}</td><td>"
                                  f"{record.seconds:.1f} s</td><td>{', '.join(links)}</td>"
                                  f"<td>{reason}</td></tr>"))

    def write(self, summary: str) -> None:
        """The index: `summary` is the soak's closing tables as the terminal showed them."""
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.started))
        body = (f"<h1>webbot soak report</h1><p><code>{html.escape(self.title)}</code>, "
                f"started {when}.</p><h2>What it printed</h2>{printed(summary)}"
                f"<h2>Games ({len(self.rows)})</h2><table class=\"games\"><tr><th>number</th>"
                "<th>case</th><th>outcome</th><th>time</th><th>tries</th><th>reason</th></tr>"
                + "".join(row for _, row in sorted(self.rows)) + "</table>")
        folders.write_private(self.path, page(self.title, body).encode())
