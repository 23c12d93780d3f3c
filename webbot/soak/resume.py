"""`webbot soak ... --jsonl FILE --resume`: what the record of an earlier run of the same soak
already holds, so that only the games not recorded as passed are played again.

Each line is written and flushed as its game ends, so a soak killed at any moment leaves at
most its last line cut short: that line is dropped. Every other line must be a record of this
game; a case counts as done when it passed and is the case that this seed draws for its
number (a record of another seed is a different soak: a usage error)."""

from __future__ import annotations

import json
from pathlib import Path

from webbot.files import InputError, read_bytes
from webbot.soak.games import make_case
from webbot.soak.runner import GameRecord, Plan

MAX_RECORD_BYTES = 256 * 1024 * 1024


def recorded(path: Path, plan: Plan) -> list[GameRecord]:
    """The records of `path` that this plan need not play again: passed, one per case."""
    if not path.exists():
        return []
    data = read_bytes(path, MAX_RECORD_BYTES)
    whole = data[:data.rfind(b"\n") + 1]  # a line cut short by a kill: played again
    try:
        lines = whole.decode("utf-8").split("\n")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text (offset {exc.start})") from None
    kept: dict[int, GameRecord] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = GameRecord.from_json(json.loads(line))
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(f"{path}: line {number} is not a soak record ({exc})") from None
        if record.case.game != plan.game:
            raise InputError(f"{path}: line {number} records a game of {record.case.game}, "
                             f"not {plan.game}")
        drawn = make_case(plan.game, plan.seed, record.case.number, plan.query, plan.options)
        if drawn.name != record.case.name:
            raise InputError(f"{path}: line {number} records case {record.case.name!r} as "
                             f"number {record.case.number}, which seed {plan.seed} draws as "
                             f"{drawn.name!r}: another soak's record (--seed, --query)")
        if record.passed and (plan.count is None or record.case.number < plan.count):
            kept.setdefault(record.case.number, record)
    return [kept[number] for number in sorted(kept)]
