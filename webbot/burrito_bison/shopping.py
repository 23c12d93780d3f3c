"""A visit to the shop: select each unlocked card of the grid to read its panel, buy the
dearest upgrade the coins cover and the game lets you buy, again until none is left, then
leave by the Next arrow. Each step waits for the panel to show its result, not a set time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from webbot.beside import on_a_thread
from webbot.burrito_bison.act import Hands
from webbot.burrito_bison.matching import TemplatePack
from webbot.burrito_bison.model import Observation
from webbot.burrito_bison.shop import (
    Card,
    Detail,
    buy_button,
    grid_cards,
    panel,
    read_detail,
    read_name,
)
from webbot.deadline import Deadline
from webbot.debug import Recorder
from webbot.vision.marks import Mark
from webbot.vision.still import alike

VISIT_LIMIT = 10   # purchases in one visit, a guard against a misread balance
SETTLE_S = 1.5     # a panel that has not settled by then is read as it is
PURCHASE_WAIT_S = 3.0
T = TypeVar("T")


@dataclass
class Purchase:
    name: str
    price: int
    level: int


@dataclass
class Visit:
    look: Callable[..., Observation]  # (early=True: each new frame, BurritoBot.look)
    hands: Hands
    pack: TemplatePack
    recorder: Recorder
    report: Callable[[str], None]
    details: dict[int, Detail] = field(default_factory=dict)  # slot -> its panel as last read
    refused: set[int] = field(default_factory=set)  # slots the game showed as not affordable
    bought: list[Purchase] = field(default_factory=list)

    def run(self, observation: Observation, budget: int | None) -> Observation:
        """Shop until nothing more can be bought; return the last observation (still the
        shop, unless the game left it)."""
        for _ in range(VISIT_LIMIT):
            cards = {c.slot: c for c in grid_cards(observation.image, self.pack) if not c.locked}
            for card in cards.values():
                if card.slot not in self.details:
                    observation = self._select(observation, card)
                    if observation.sighting.screen != "shop":
                        return observation
            spendable = budget - sum(p.price for p in self.bought) if budget is not None else None
            choices = [(slot, d) for slot, d in self.details.items()
                       if slot in cards and slot not in self.refused and d.price is not None
                       and not d.maxed and (spendable is None or d.price <= spendable)
                       and (spendable is not None or d.buyable)]
            if not choices:
                break
            slot, _ = max(choices, key=lambda choice: choice[1].price or 0)
            observation = self._select(observation, cards[slot])
            detail = self.details[slot]
            if observation.sighting.screen != "shop":
                return observation
            if not detail.buyable or detail.price is None:
                self.refused.add(slot)
                continue
            after = self._buy(observation, cards[slot], detail)
            if after is None:
                break
            observation = after
            if slot in self.refused:  # the game ignored BUY: not pressed again this visit
                break
        return observation

    def cheapest(self) -> int | None:
        prices = [d.price for d in self.details.values() if d.price is not None and not d.maxed]
        return min(prices) if prices else None

    # -- steps ---------------------------------------------------------------------------
    def _settled(self, before: np.ndarray | None, changed: Callable[[np.ndarray], bool],
                 wait_s: float) -> Observation:
        """Looks until the panel has changed (as `changed` says) and then held still for one
        look, or until `wait_s` has passed. Each new frame is looked at; those shown while the
        click went out or before it could show are waited on."""
        deadline: Deadline | None = None
        previous = before
        while True:
            observation = self.look(early=True)
            if observation.hands_busy:
                continue
            if deadline is None:  # (from when the click was all out, not when it was sent)
                deadline = Deadline(wait_s)
            if observation.grab.before_input:
                continue
            now = panel(observation.image)
            if observation.sighting.screen != "shop":
                return observation
            if (alike(previous, now) and changed(now)) or deadline.passed():
                return observation
            previous = now

    def _select(self, observation: Observation, card: Card) -> Observation:
        """Click a card and read its panel once it holds still (the card may have been
        selected already, so no change is waited for). The click goes out as the looks go on,
        as all the bot's clicks do."""
        self.hands.click_soon(observation.grab, card.centre)
        observation = self._settled(None, lambda now: True, SETTLE_S)
        if observation.sighting.screen == "shop":
            self.details[card.slot] = self._read_detail(observation)
        return observation

    def _read_detail(self, observation: Observation) -> Detail:
        """The panel of `observation` read beside the looks, which go on at each new frame
        meanwhile; its name is read only for a purchase (_buy): Tesseract's process for each
        card cost a visit ~2.5 s and ~70 of the frames the game drew."""
        return self._beside(lambda: read_detail(observation.image, self.pack.digits,
                                                named=False))

    def _beside(self, reading: Callable[[], T]) -> T:
        """`reading()` on a thread of its own, the looks going on at each new frame meanwhile
        (Tesseract may take a second)."""
        done = on_a_thread(reading, "webbot-shop-reading")
        while not done.done():
            self.look(early=True)
        return done.result()

    def _buy(self, observation: Observation, card: Card, detail: Detail) -> Observation | None:
        """Press BUY; a purchase counts once the panel has settled on a higher level or a new
        price, not on the pressed button alone."""
        name = self._beside(lambda: read_name(observation.image)) or \
            f"the card in slot {card.slot}"
        at = buy_button(observation.image)
        self.recorder.annotated(observation.grab, "shop", [
            Mark(at[0] - 111, at[1] - 50, 222, 100, text=f"buy {name} {detail.price}",
                 color=(0, 160, 0))])
        before = panel(observation.image)
        self.hands.click_soon(observation.grab, at)
        after = self._settled(before, lambda now: not alike(now, before), PURCHASE_WAIT_S)
        if after.sighting.screen != "shop":
            return None
        now = self._read_detail(after)
        self.details[card.slot] = now
        if now.level > detail.level or (now.price is not None and now.price != detail.price) \
                or now.maxed:
            self.bought.append(Purchase(name, detail.price or 0, now.level))
            self.report(f"  shop: bought {name} (level {now.level}) for "
                            f"{detail.price:,} coins")
            return after
        self.report(f"  shop: {name} for {detail.price:,} was clicked but its panel did not "
                        "change; not counted as bought")
        self.refused.add(card.slot)
        return after
