"""Text a page chose (an id, a class, a button's words, a title, a message), made safe to
show: the one way page text reaches the terminal, a report or a file name.

A page may put anything in its strings: console markup (`[/x]`, `[link=...]`, and every
Tailwind class such as `data-[state=open]:animate-in` looks like markup to rich), terminal
control codes (`ESC ] 0 ;` retitles the window, `ESC [ 2J` clears the screen), a newline that
starts a line of its own that looks like the bot's, or a 200,000-character title. What is
shown is the text itself: markup is never interpreted (webbot.commands' console has markup,
emoji and highlighting off and passes every string through here; the report escapes all it
embeds), control characters are replaced by a visible picture of them, and a page's string
is cut to MAX_SHOWN characters.

The same console never cuts a table: its columns fold what does not fit onto more lines
(rich's own default ends a cell, a header too, in "…"), and printed to a file or a pipe it is
as wide as the widest line (rich takes 80 columns there), so a table keeps a row a line. A
COLUMNS set by the user is honoured.
"""

from __future__ import annotations

import re

from rich import table
from rich.console import Console, ConsoleDimensions
from rich.text import Text

MAX_SHOWN = 300
WIDE = 1000  # the console's width when it does not print to a terminal
# C0 but tab and newline, DEL, C1, and the bidirectional overrides and isolates, which can
# make a line read in another order than it is written.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# In a name: newline and tab too, and lone surrogates (bytes of a file name not UTF-8).
_NAME_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _picture(match: re.Match) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # Unicode's control pictures: ␛ for ESC, ␇ for BEL ...
    return "\u2421" if code == 0x7F else "\ufffd"  # ␡ for DEL, � for the rest


def shown(text: object, limit: int | None = MAX_SHOWN) -> str:
    """`text` safe to show. With a `limit` (a page's string, put into a line of the bot's) its
    whitespace, newlines included, is folded into single spaces and it is cut to `limit`
    characters with an ellipsis; with None (a whole line or file of the bot's) tabs and
    newlines stay. Control characters are shown as pictures either way, one for one."""
    text = str(text)
    if limit is not None:
        text = " ".join(text[:limit * 4].split())
        if len(text) > limit:
            text = text[:limit - 1] + "…"
    return _CONTROL.sub(_picture, text)


def shown_name(name: object) -> str:
    """A name the user gave (a file's, an option's value) safe to show, and whole: its control
    characters shown as pictures, as `shown` does, and its newlines and tabs too (it stays on
    its line), and the bytes of a name that are not UTF-8 (which Python keeps as lone
    surrogates, and would print as they are: 0x9b is a terminal's CSI) as �."""
    return _NAME_CONTROL.sub(_picture, str(name))


class TextConsole(Console):
    """A rich console that prints strings as text: no markup, emoji codes or highlighting, and
    control characters shown, never obeyed (tables' cells and status lines included: rich
    turns every string it renders into text here)."""

    def __init__(self, **options) -> None:
        super().__init__(markup=False, emoji=False, highlight=False, **options)

    def render_str(self, text: str, **options) -> Text:
        options.update(markup=False, emoji=False)
        return super().render_str(shown(text, limit=None), **options)

    @property
    def size(self) -> ConsoleDimensions:
        size = super().size
        if self._width is None and not self.is_terminal:  # (COLUMNS would be in _width)
            return ConsoleDimensions(WIDE, size.height)
        return size

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        self._width, self._height = new_size


class Table(table.Table):
    """rich's Table whose columns fold a cell (its header too) that does not fit onto more
    lines, never ending it in an ellipsis; its title is printed above it as wide as the page
    allows (rich would fold it to the table's width), broken only between its phrases."""

    def add_column(self, *args, **options) -> None:
        options.setdefault("overflow", "fold")
        super().add_column(*args, **options)

    def __rich_console__(self, console: Console, options):
        title, self.title = self.title, None
        try:
            if title:
                for line in title_lines(str(title), options.max_width):
                    # (through the console's render_str: a TextConsole shows it as text)
                    yield console.render_str(line, style="table.title", overflow="fold")
            yield from super().__rich_console__(console, options)
        finally:
            self.title = title


def phrases(text: str) -> list[str]:
    """A title's phrases: what stands in brackets, and the runs of words between them."""
    return [part.strip() for part in re.split(r"(\([^()]*\))", text) if part.strip()]


def title_lines(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` characters, broken between phrases; a phrase longer
    than a line is broken between its words."""
    lines: list[str] = []
    for phrase in phrases(text):
        glued = f"{lines[-1]} {phrase}" if lines else phrase
        if lines and len(glued) <= width:
            lines[-1] = glued
            continue
        words = phrase.split(" ")
        lines.append(words[0])
        for word in words[1:]:
            if len(lines[-1]) + 1 + len(word) <= width:
                lines[-1] += " " + word
            else:
                lines.append(word)
    return lines
