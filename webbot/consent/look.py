"""The bot's own look at a frame for a consent dialog: the library's word that it found a
dialog and answered it is believed only when the bot saw a dialog there as the library said
so, and saw it gone after the answer. A script in the page's own world can send the library's
messages as well as the library can."""

from __future__ import annotations

from playwright.sync_api import ElementHandle, Error, Frame

from webbot.answer import NoAnswer, evaluate, evaluate_handle
from webbot.consent.buttons import consent_buttons
from webbot.page_scripts import page_script


def dialog_in(frame: Frame) -> list[ElementHandle]:
    """What the bot sees of a dialog over the frame: its consent buttons, else whatever is
    laid over the page (fixed or sticky); empty when nothing is."""
    buttons = [button.element for button in consent_buttons(frame)]
    if buttons:
        return buttons
    try:
        over = evaluate_handle(frame, page_script("overlay")).as_element()
    except (Error, NoAnswer):
        return []
    return [over] if over is not None else []


def still_there(frame: Frame, seen: list[ElementHandle]) -> bool:
    """Whether the frame still shows a consent button, or any of what was `seen` of a dialog;
    a frame or document gone took its dialog with it."""
    if frame.is_detached():
        return False
    if consent_buttons(frame):
        return True
    if not seen:
        return False
    try:
        return bool(evaluate(frame, page_script("any_showing"), seen))
    except (Error, NoAnswer):
        return False
