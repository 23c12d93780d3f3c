"""The bot's own look at a frame for a consent dialog: the library's word that it found a
dialog and answered it is believed only when the bot saw that dialog's own element there as
the library said so (the element the library's rule knows the vendor's popup by, else the
dialog's consent buttons), and saw it gone after the answer. Whatever else lies over a page (a
banner, a page's own overlay) is not a consent dialog: a script in the page's own world can
send the library's messages as well as the library can."""

from __future__ import annotations

from playwright.sync_api import ElementHandle, Error, Frame

from webbot.answer import NoAnswer, evaluate, evaluate_handle, properties
from webbot.consent.buttons import consent_buttons
from webbot.page_scripts import page_script

# A vendor's popup: CSS selectors, or paths of them into shadow roots and frames.
Popup = tuple[str | tuple[str, ...], ...]


def dialog_in(frame: Frame, popup: Popup = ()) -> tuple[list[ElementHandle], bool]:
    """What the bot sees of the dialog the library said it found in the frame, and whether it
    is the vendor's own: the elements showing that match `popup` (the selectors of the
    vendor's popup, from the library's rule), else the frame's consent buttons; nothing when
    it sees neither."""
    if popup and (elements := popup_in(frame, popup)):
        return elements, True
    return [button.element for button in consent_buttons(frame)], False


def popup_in(frame: Frame, popup: Popup) -> list[ElementHandle]:
    """The elements showing in the frame that match the `popup` selectors."""
    try:
        selectors = [list(s) if isinstance(s, tuple) else s for s in popup]
        found = evaluate_handle(frame, page_script("popup_elements"), selectors)
        elements = [handle.as_element() for handle in properties(found).values()]
    except (Error, NoAnswer):
        return []
    return [element for element in elements if element is not None]


def still_there(frame: Frame, seen: list[ElementHandle], popup: Popup = ()) -> bool:
    """Whether the frame still shows a consent button, or the vendor's own popup (anything
    matching `popup`, which a class on the page's body may say), else any of what was `seen`
    of a dialog; a frame or document gone took its dialog with it."""
    if frame.is_detached():
        return False
    if consent_buttons(frame):
        return True
    if popup:
        return bool(popup_in(frame, popup))
    if not seen:
        return False
    try:
        return bool(evaluate(frame, page_script("any_showing"), seen))
    except (Error, NoAnswer):
        return False
