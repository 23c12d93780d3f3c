"""The Daily SET bot: reads the page's 12 cards from their image files, finds the 6 SETs, clicks
each one's three cards and checks the page's answer."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import cv2
import numpy as np
from playwright.sync_api import Error

from webbot.daily_set.act import Hands
from webbot.daily_set.answers import Answer
from webbot.daily_set.decide import Misread, Observation, next_set, todays_sets
from webbot.daily_set.page import MAX_IMAGE_BYTES, Board, CardSlot, ImageFetcher, parse_board
from webbot.errors import WebbotError
from webbot.game import Candidate, GameSpec
from webbot.play import Playable
from webbot.screen import Box, Grab
from webbot.seat import Seat
from webbot.session import Session
from webbot.set_cards.model import DAILY_SETS, Card, Reading, least_certain
from webbot.set_cards.perceive import CardError, as_bgr, classify
from webbot.vision.marks import Mark

COMPLETION_WAIT_S = 5.0
TILE = (190, 124)  # a card in the picture of what the bot saw
LABEL_H = 22
OLD_CARD_WIDTH = 95
# How long the thread reading the cards ahead waits for the browser's copy of their images
# (it comes within the finder's first calls) before it downloads them.
GIVEN_WAIT_S = 2.0


@dataclass(frozen=True)
class FoundSet:
    positions: tuple[int, int, int]
    cards: tuple[Card, Card, Card]
    message: str


@dataclass
class Outcome:
    layout: str = ""
    readings: list[Reading] = field(default_factory=list)
    found: list[FoundSet] = field(default_factory=list)
    completion: str | None = None  # how the page said the puzzle is done
    found_s: float = 0.0  # from the start to the game found (consent answered, ads skipped)
    read_ms: float = 0.0  # the cards' download and reading, wherever they were done
    read_ahead: bool = False  # read while the game was looked for (CardsAhead)
    ready_s: float = 0.0  # from the start to the cards read
    confirmed_s: float = 0.0  # from the start to the last set confirmed
    seconds: float = 0.0  # from the start to the end, the completion page included
    recoveries: int = 0  # pages lost and reopened
    done_before: bool = False  # the page says every set was found before this run

    @property
    def complete(self) -> bool:
        return self.done_before or len(self.found) == DAILY_SETS


def recognises(candidate: Candidate) -> bool:
    """Is this frame a Daily SET page (its HTML holds the 12 cards)?"""
    try:
        parse_board(candidate.html(), candidate.frame.url)
    except WebbotError:
        return False
    return True


# A card's link or picture, in whatever frame holds the puzzle.
GAME = GameSpec("the Daily SET puzzle", 'a[href*="cardClicked"], img[name^="card"]', recognises,
                min_size=(20, 15), appears_within_s=10)


def layout_name(board: Board, images: Sequence[np.ndarray]) -> str:
    """current, 2022 (the table with large GIF cards shown small) or old (small GIFs)."""
    if board.layout != "old":
        return board.layout
    return "2022" if images and images[0].shape[1] > 1.5 * OLD_CARD_WIDTH else "old"


def fetch_images(board: Board, given: dict[str, bytes] | None = None) -> list[np.ndarray]:
    """The board's card pictures, in page order: those `given` (the browser's copy of what the
    page loaded), the others downloaded from the page's own site."""
    pictures = ImageFetcher(board.url).fetch_pictures([slot.image_url for slot in board.slots],
                                                      given)
    return [as_bgr(pixels, slot.image_url)
            for (_, pixels), slot in zip(pictures, board.slots, strict=True)]


def read_cards(board: Board, images: Sequence[np.ndarray]) -> list[Reading]:
    readings = []
    for slot, image in zip(board.slots, images, strict=True):
        try:
            readings.append(classify(image))
        except CardError as exc:
            raise CardError(f"card {slot.position} ({slot.image_url}): {exc}") from None
    return readings


class CardsAhead:
    """The cards of the top page's board read on a thread while the finder looks for the game
    (its round trips to the browser leave the interpreter free), from the browser's copy of
    the card images (asked of the browser now, answered during the finder's calls; a card it
    has not is downloaded); taken only when the board found is the same board."""

    def __init__(self, seat: Seat) -> None:
        self.board = parse_board(*seat.top_html())  # WebbotError: no board on the top page
        self._given = seat.top_resources([slot.image_url for slot in self.board.slots],
                                         MAX_IMAGE_BYTES)
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="cards-ahead")
        self._work = self._pool.submit(self._read)

    def _read(self) -> tuple[list[np.ndarray], list[Reading], float] | None:
        started = time.perf_counter()
        given = self._given.wait(GIVEN_WAIT_S)
        if self._given.given_up:
            return None  # (not needed any more: nothing downloaded)
        images = fetch_images(self.board, given)
        return images, read_cards(self.board, images), time.perf_counter() - started

    def taken_for(self, board: Board) -> tuple[list[np.ndarray], list[Reading], float] | None:
        """The pictures, readings and seconds they took, for `board` if it is the one read;
        None otherwise, or when they failed (read again, their error said then)."""
        if board != self.board:
            return None
        if not self._work.done():  # (the thread may wait for it: it comes only in a call)
            self._given.settle(GIVEN_WAIT_S)
        try:
            return self._work.result()
        except WebbotError:
            return None

    def close(self) -> None:
        """Bounded: the thread stops waiting for the browser's copy, and a download gives up
        within its time-outs."""
        self._given.cancel()
        self._pool.shutdown(wait=True, cancel_futures=True)


def _tile(i: int) -> tuple[int, int]:
    """Top-left corner of card i in the picture of what the bot saw (4 to a row, a label
    strip above each)."""
    return (i % 4) * TILE[0], (i // 4) * (TILE[1] + LABEL_H) + LABEL_H


def cards_picture(images: Sequence[np.ndarray]) -> Grab:
    """The cards as the bot saw them, side by side; `picture_marks` labels them."""
    rows = (len(images) + 3) // 4
    sheet = np.full((rows * (TILE[1] + LABEL_H), 4 * TILE[0], 3), 255, np.uint8)
    for i, image in enumerate(images):
        x, y = _tile(i)
        sheet[y:y + TILE[1], x:x + TILE[0]] = cv2.resize(image, TILE,
                                                          interpolation=cv2.INTER_AREA)
    return Grab(sheet, Box(0, 0, sheet.shape[1], sheet.shape[0]))


def picture_marks(readings: Sequence[Reading]) -> list[Mark]:
    marks = []
    for i, reading in enumerate(readings):
        x, y = _tile(i)
        colour = (0, 0, 255) if reading.doubt > 0.5 else (0, 140, 0)
        marks.append(Mark(x + 1, y, TILE[0] - 2, TILE[1] - 1, f"{i + 1}: {reading.card}",
                          colour))
    return marks


class DailySetBot:
    """The Daily SET as a game of the play loop: reset finds the page and reads its cards,
    a step clicks one set and checks the page's answer."""

    def __init__(self, seat: Seat, report: Callable[[str], None] = print) -> None:
        self.seat = seat
        self.report = report
        self.outcome = Outcome()
        self.started = time.perf_counter()

    def reset(self) -> Observation:
        if self.outcome.readings:  # again, on a page reopened after a lost one: each set is
            self.outcome.found = []  # clicked again (a page that kept it says "already found")
            self.outcome.recoveries += 1
        else:
            self.started = time.perf_counter()
        images = self.open_board()
        readings = self._readings_ahead
        if readings is None:
            with self.seat.recorder.phases("perception"):
                readings = read_cards(self.board, images)
            reading = self.started + self.outcome.found_s  # (the game found)
            self.outcome.read_ms = (time.perf_counter() - reading) * 1000
        self.outcome.ready_s = time.perf_counter() - self.started
        self.outcome.layout, self.outcome.readings = layout_name(self.board, images), readings
        picture = cards_picture(images)
        self.seat.recorder.keep(picture, "cards")
        self.seat.recorder.annotated(picture, "cards", picture_marks(readings))
        todays_sets(readings)  # a misread stops here, before any click
        ahead = " while the game was looked for" if self.outcome.read_ahead else ""
        self.report(f"read {len(readings)} cards ({self.outcome.layout} layout) in "
                    f"{self.outcome.read_ms:.0f} ms{ahead}: {DAILY_SETS} sets to click")
        self.observation = Observation(tuple(readings))
        return self.observation

    def open_board(self) -> list[np.ndarray]:
        """The game found on the page (each thing cleared on the way reported), hands on its
        frame, its board parsed and the card pictures downloaded (and read: _readings_ahead,
        when the top page's board was read while the game was looked for)."""
        self._readings_ahead: list[Reading] | None = None
        ahead = self._cards_ahead()
        try:
            found = self.seat.find_game(GAME, self.report)
            frame = found.candidate.frame
            self.hands = Hands(frame, self.seat.mouse, found.way, self.seat.recorder.phases)
            reading = time.perf_counter()  # the game found, consent answered, ads skipped
            self.outcome.found_s = reading - self.started
            # The live page rather than a second download: a generated puzzle exists only there
            # (its HTML as the game was recognised by it, a moment ago).
            with self.seat.recorder.phases("fetching the cards"):
                self.board = parse_board(found.candidate.html(), frame.url)
                taken = ahead.taken_for(self.board) if ahead else None
                if taken is None:
                    return fetch_images(self.board)
            images, self._readings_ahead, seconds = taken
            self.outcome.read_ms, self.outcome.read_ahead = seconds * 1000, True
            return images
        finally:
            if ahead:
                ahead.close()

    def _cards_ahead(self) -> CardsAhead | None:
        """The top page's cards read on a thread, if its HTML holds a board."""
        try:
            return CardsAhead(self.seat)
        except (WebbotError, Error):
            return None

    def step(self, triple: tuple[int, int, int]) -> Observation:
        number = len(self.observation.clicked) + 1
        positions = tuple(self.board.slots[i].position for i in triple)
        answer = self.hands.click_set([self.board.slots[i] for i in triple],
                                      self._likely_next(triple))
        self._check(answer, positions, number)
        cards = tuple(self.observation.readings[i].card for i in triple)
        self.outcome.found.append(FoundSet(positions, cards, answer.text))
        self.report(f"set {number}: cards {_positions(positions)} -> "
                    f"{answer.text or 'the page moved on to ' + str(answer.left_page)}")
        readings = self.observation.readings
        self.observation = Observation(readings, (*self.observation.clicked, triple))
        if answer.all_found_before:  # today's puzzle was done before: nothing left to click
            self.outcome.done_before = True
            self.report("today's puzzle was done before this run: the page says every set was "
                        "found already")
            self.observation = Observation(readings, tuple(todays_sets(readings)))
        return self.observation

    def result(self) -> Outcome:
        self.outcome.confirmed_s = time.perf_counter() - self.started
        self.outcome.completion = self.hands.wait_done(COMPLETION_WAIT_S)
        self.outcome.seconds = time.perf_counter() - self.started
        return self.outcome

    def _likely_next(self, triple: tuple[int, int, int]) -> CardSlot | None:
        """The first card of the set the bot's own policy would click next, for the mouse to
        move on to while the page answers (another policy's next set is only a move away)."""
        upcoming = next_set(Observation(self.observation.readings,
                                        (*self.observation.clicked, triple)))
        return self.board.slots[upcoming[0]] if upcoming else None

    def _check(self, answer: Answer, positions: tuple[int, int, int], number: int) -> None:
        said = f"cards {_positions(positions)}"
        if answer.left_page and number < DAILY_SETS:
            raise WebbotError(f"after {said} the page went to {answer.left_page} with only "
                              f"{number} of {DAILY_SETS} sets clicked")
        if answer.rejected:
            raise Misread(f"the page says {said} are not a set ({answer.text}); least "
                          f"certain: {least_certain(self.outcome.readings)}")
        if answer.left_page:
            return  # the last set: the game moved on to its completion page
        if answer.already:
            return  # found before, on this page or on one that kept it (a reload, a player)
        # The page's count may run ahead of the bot's when it kept sets found before.
        if answer.found is not None and not number <= answer.found <= DAILY_SETS \
                or not answer.great:
            raise WebbotError(f"after {said}, set {number} for the bot, the page says: "
                              f"{answer.text!r}")


def _positions(positions: Sequence[int]) -> str:
    return ", ".join(map(str, positions))


def player(session: Session, *, report: Callable[[str], None] = lambda line: None
           ) -> Playable[Observation, tuple[int, int, int], Outcome]:
    """The Daily SET's one factory (its registration's player): the bot on `session`'s page
    and its policy, as `webbot daily-set` plays them."""
    return Playable.on(session, DailySetBot(session, report), next_set, report)
