"""The puzzle file's schema (pydantic), with its bounds, and one-line reasons for bad files.

Types are strict where JSON could say something else by accident: a number must be a whole
number (not "7", 7.0 or true). The bounds keep every solver's work finite: a board of at most
50 x 50 cells, numbers 0-99 as the game draws them, and targets no line of such a board can
exceed. The rules that tie fields together (free cells against pieces, sums on lines with cells)
are checked by the model after this.
"""

from __future__ import annotations

import reprlib
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from webbot.files import InputError


class PuzzleError(InputError):
    """The puzzle description is malformed."""


MAX_INDEX = 49  # rows and columns 0-49: a board of at most 50 x 50
MAX_CELLS = (MAX_INDEX + 1) ** 2
MAX_VALUE = 99  # the game shows single digits; generated puzzles may use larger numbers
MAX_TARGET = MAX_VALUE * (MAX_INDEX + 1)
MAX_SUMS = 3 * 2 * (MAX_INDEX + 1)  # a sum of each kind on every row and column

Index = Annotated[StrictInt, Field(ge=0, le=MAX_INDEX)]
Value = Annotated[StrictInt, Field(ge=0, le=MAX_VALUE)]
Target = Annotated[StrictInt, Field(ge=0, le=MAX_TARGET)]


class _Part(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class PieceFields(_Part):
    value: Value
    color: Literal["blue", "white"] = "blue"


class SumFields(_Part):
    line: Literal["row", "col"]
    index: Index
    target: Target
    counts: Literal["all", "blue", "white"] = "all"
    side: Literal["left", "right", "top", "bottom"] | None = None


class PuzzleFields(_Part):
    cells: list[tuple[Index, Index, Value | None]] = Field(max_length=MAX_CELLS)
    pieces: list[PieceFields] = Field(max_length=MAX_CELLS)
    sums: list[SumFields] = Field(default=[], max_length=MAX_SUMS)


NUMBER = {"index": f"a whole number from 0 to {MAX_INDEX}",
          "value": f"a whole number from 0 to {MAX_VALUE}",
          "target": f"a whole number from 0 to {MAX_TARGET}"}
CELL_PARTS = (("row", NUMBER["index"]), ("col", NUMBER["index"]),
              ("value", NUMBER["value"] + " or null (a free cell)"))
EXPECTED = {
    (): 'a JSON object with "cells", "pieces" and "sums"',
    ("cells",): f"a list of at most {MAX_CELLS} cells [row, col, value]",
    ("cells", "[]"): "[row, col, value]",
    ("pieces",): f'a list of at most {MAX_CELLS} pieces {{"value", "color"}}',
    ("pieces", "[]"): '{"value", "color"}',
    ("pieces", "[]", "value"): NUMBER["value"],
    ("pieces", "[]", "color"): '"blue" or "white"',
    ("sums",): f'a list of at most {MAX_SUMS} sums {{"line", "index", "target", "counts"}}',
    ("sums", "[]"): '{"line", "index", "target", "counts"}',
    ("sums", "[]", "line"): '"row" or "col"',
    ("sums", "[]", "index"): NUMBER["index"],
    ("sums", "[]", "target"): NUMBER["target"],
    ("sums", "[]", "counts"): '"all", "blue" or "white"',
    ("sums", "[]", "side"): '"left", "right", "top", "bottom" or null',
}
_short = reprlib.Repr()  # a bad value is shown, but never at length
_short.maxlevel, _short.maxlist, _short.maxdict = 2, 4, 3
_short.maxstring = _short.maxother = _short.maxlong = 24


def _path(loc: tuple) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _expected(loc: tuple) -> str:
    key = tuple("[]" if isinstance(part, int) else part for part in loc)
    if key[:3] == ("cells", "[]", "[]") and len(key) == 3:
        name, rule = CELL_PARTS[loc[2]]
        return f"the {name} of [row, col, value]: {rule}"
    return EXPECTED.get(key, "something else")


def explain(error: ValidationError) -> str:
    """The first problem of a validation error as 'path: expected ..., got ...'."""
    first = error.errors(include_url=False)[0]
    loc, got = first["loc"], first.get("input")
    if first["type"] == "missing" and len(loc) == 3 and loc[0] == "cells":
        loc = loc[:2]  # a cell too short: say what a cell is
    elif first["type"] == "missing":
        return f"{_path(loc)}: missing ({_expected(loc)})"
    if first["type"] == "too_long" and isinstance(got, list | tuple) and len(loc) <= 1:
        got = f"{len(got):,}"
    else:
        got = _short.repr(got)
    where = f"{_path(loc)}: " if loc else ""
    return f"{where}expected {_expected(loc)}, got {got}"


def check(data: Any, name: str = "the puzzle") -> PuzzleFields:
    """The puzzle's fields, or an InputError naming the bad field."""
    try:
        return PuzzleFields.model_validate(data)
    except ValidationError as exc:
        raise PuzzleError(f"{name}: {explain(exc)}") from None
