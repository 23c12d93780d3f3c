"""The scripts the bot runs in pages, one `.js` file each in this folder, loaded by name.

Each file is one function expression, as Playwright's `evaluate` takes it, after a head of
`//` lines that says what it does. A script that uses others names them in its head
(`// uses: helpers, card_state`) and takes them as its first parameters, before the page's
arguments: they are handed in here, each as its own file's expression (a file of shared
functions is an expression giving them as an object). So every file is checked on its own
(`node --check`, scripts/test.sh) and each piece is written once.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

USES = re.compile(r"//\s*uses:\s*(.*)")  # a whole head line


@cache
def page_script(name: str) -> str:
    """The script `name`.js, with the scripts it uses handed in."""
    text = resources.files(__package__).joinpath(f"{name}.js").read_text(encoding="utf-8")
    lines = text.strip().splitlines()
    head = 0
    while head < len(lines) and lines[head].lstrip().startswith("//"):
        head += 1
    body = "\n".join(lines[head:])
    uses = [part.strip() for line in lines[:head] if (found := USES.fullmatch(line.strip()))
            for part in found.group(1).split(",") if part.strip()]
    if not uses:
        return body
    used = ", ".join(page_script(part) for part in uses)
    return f"(...args) => ({body}\n)({used}, ...args)"
