"""The games webbot knows. Each game registers itself once, as a `Registration` in its own
package, named by an entry point of the group `webbot.games` (pyproject.toml); the command
line, `webbot soak`, `webbot serve`, the benchmarks and the shared tests go through this list
and name no game themselves.

`WEBBOT_GAMES` (module:attribute, comma-separated) adds registrations that are not installed
as entry points: the tests' toy game, or a game under development. Dask workers started here
inherit it; on a cluster, set it on the workers too.
"""

from __future__ import annotations

import functools
import importlib
import os
import random
from dataclasses import dataclass
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

import click

from webbot.errors import WebbotError
from webbot.server import fixtures_root
from webbot.words import unknown

GROUP = "webbot.games"
EXTRA = "WEBBOT_GAMES"


@dataclass(frozen=True)
class Registration:
    """What the rest of webbot needs to know of a game, by name; its modules are imported
    only when used (the command line starts without loading every game's vision)."""

    name: str  # its command: `webbot <name>`, `webbot soak <name>`
    title: str  # as players know it: "Puzlogic"
    page: str  # its replica's page under fixtures/
    commands: str  # "module:attribute" of its click group
    replica: str  # the module with its soak cases and judge (only the soak and tests use it)
    soak: str  # one game of its soak, in a few words
    # "module:attribute" of its player, the game's one factory: a session -> the match
    # (webbot.play.Match) its command plays; webbot.contract plays it on the replica
    player: str = ""

    def command(self) -> Any:
        return load(self.commands)

    def replica_module(self) -> ModuleType:
        return importlib.import_module(self.replica)

    def soak_defaults(self) -> dict:
        """Its replica's soak options, each at its default."""
        return {option.name: option.default for option in self.replica_module().SOAK_OPTIONS}


def load(reference: str) -> Any:
    """The object a "module:attribute" reference names."""
    module, _, attribute = reference.partition(":")
    target: Any = importlib.import_module(module)
    for part in filter(None, attribute.split(".")):
        target = getattr(target, part)
    return target


@functools.cache
def _registered(extra: str) -> dict[str, Registration]:
    found: dict[str, Registration] = {}
    references = [point.value for point in entry_points(group=GROUP)]
    references += [r.strip() for r in extra.split(",") if r.strip()]
    for reference in references:
        try:
            registration = load(reference)
        except (ImportError, AttributeError) as exc:
            raise WebbotError(f"cannot load the game registered as {reference!r}: {exc}") \
                from None
        if not isinstance(registration, Registration):
            raise WebbotError(f"{reference!r} is not a webbot game Registration")
        found.setdefault(registration.name, registration)
    return dict(sorted(found.items()))


def games() -> dict[str, Registration]:
    """Every registered game, by name."""
    return _registered(os.environ.get(EXTRA, ""))


def game(name: str) -> Registration:
    known = games()
    if name not in known:
        raise WebbotError(unknown("game", name, list(known)))
    return known[name]


def check(registration: Registration) -> list[str]:
    """What is wrong with a game's registration: its command, its replica's page, its player
    named, its soak case and judge. Empty when it keeps the contract on paper;
    webbot.contract.plays plays it."""
    problems = []
    try:
        command = registration.command()
    except Exception as exc:  # any import or attribute error is the finding
        return [f"{registration.commands}: cannot load ({exc})"]
    if not isinstance(command, click.Group) or command.name != registration.name:
        problems.append(f"{registration.commands} is not a click group named "
                        f"{registration.name!r}")
    if not (fixtures_root() / registration.page).is_file():
        problems.append(f"its replica's page {registration.page} is not under "
                        f"{fixtures_root()}")
    try:
        replica = registration.replica_module()
    except ImportError as exc:
        return [*problems, f"{registration.replica}: cannot load ({exc})"]
    if not registration.player:
        problems.append("it names no player (its factory of the match its command plays)")
    for name in ("SOAK_OPTIONS", "soak_case", "play_and_judge"):
        if not hasattr(replica, name):
            problems.append(f"{registration.replica} has no {name}")
    if problems:
        return problems
    defaults = registration.soak_defaults()
    cases = [replica.soak_case(random.Random(n), "", defaults) for n in (1, 1, 2)]
    if cases[0] != cases[1]:
        problems.append("its soak cases are not drawn from their seed alone")
    folder = registration.page.rsplit("/", 1)[0] + "/"
    if not all(isinstance(name, str) and path.startswith(folder) for name, path in cases):
        problems.append(f"its soak cases are not (name, page under {folder}) pairs: {cases}")
    return problems
