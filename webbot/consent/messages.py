"""The messages the library sends the bot, checked before use: its binding takes messages from
any script in the page's world, so each one is held to the protocol's types and field types
(pydantic: one model per kind, strict types and length bounds say the protocol in a few lines),
and anything else is dropped."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

MAX_CHARS = 8_000  # a message's JSON; the library's own stay under 1 kB on the replica portal
MAX_DEPTH = 16  # the library's own messages nest 4 deep
Name = Annotated[StrictStr, Field(max_length=100)]  # a consent manager's name
Url = Annotated[StrictStr, Field(max_length=4_000)]


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True)  # (fields the bot does not use are left out)


class Init(_Message):
    type: Literal["init"]
    url: Url


class Eval(_Message):
    """A snippet to run: never answered (the config says isMainWorld, so the library does not
    send these; answering one would run code the page chose)."""

    type: Literal["eval"]


class Found(_Message):
    type: Literal["cmpDetected", "popupFound"]
    cmp: Name


class Result(_Message):
    type: Literal["optOutResult", "optInResult", "selfTestResult"]
    cmp: Name
    result: StrictBool


class Done(_Message):
    type: Literal["autoconsentDone"]
    cmp: Name
    isCosmetic: StrictBool  # noqa: N815 (the protocol's name)


class Failure(_Message):
    type: Literal["autoconsentError"]
    details: Any = None


class State(BaseModel):
    lifecycle: Annotated[StrictStr, Field(max_length=40)]


class Report(_Message):
    type: Literal["report"]
    state: State


Message = Init | Eval | Found | Result | Done | Failure | Report
_MESSAGE: TypeAdapter[Message] = TypeAdapter(
    Annotated[Message, Field(discriminator="type")])


def checked(message: object) -> Message | None:
    """The message, if it is one of the protocol's, nested no deeper than MAX_DEPTH (told
    before anything reads it recursively) and no longer than MAX_CHARS as JSON; else None."""
    if _deeper(message, MAX_DEPTH):
        return None
    try:
        if len(json.dumps(message)) > MAX_CHARS:
            return None
        return _MESSAGE.validate_python(message)
    except (ValidationError, TypeError, ValueError, RecursionError):
        return None


def _deeper(data: object, most: int) -> bool:
    """Whether lists and dicts nest in `data` more than `most` deep (looked at level by level,
    never recursively)."""
    level, todo = 0, [data]
    while todo:
        level += 1
        if level > most:
            return True
        todo = [item for each in todo
                for item in (each.values() if isinstance(each, dict)
                             else each if isinstance(each, list) else ())
                if isinstance(item, dict | list)]
    return False
