"""A visit to the shop: select each unlocked card of the grid to read its panel, buy the
dearest upgrade the coins cover and the game lets you buy, again until none is left, then
leave by the Next arrow. Each step waits for the panel to show its result, not a set time."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from webbot.burrito_bison.shop import Card, Detail, buy_button, grid_cards, panel, read_detail
from webbot.debug import Mark

if TYPE_CHECKING:
    from webbot.burrito_bison.bot import BurritoBot, Look

VISIT_LIMIT = 10   # purchases in one visit, a guard against a misread balance
SETTLE_S = 1.5     # a panel that has not settled by then is read as it is
PURCHASE_WAIT_S = 3.0


@dataclass
class Purchase:
    name: str
    price: int
    level: int


@dataclass
class Visit:
    bot: BurritoBot
    details: dict[int, Detail] = field(default_factory=dict)  # slot -> its panel as last read
    refused: set[int] = field(default_factory=set)  # slots the game showed as not affordable
    bought: list[Purchase] = field(default_factory=list)

    def run(self, look: Look, budget: int | None) -> Look:
        """Shop until nothing more can be bought; return the last look (still the shop, unless
        the game left it)."""
        for _ in range(VISIT_LIMIT):
            cards = {c.slot: c for c in grid_cards(look.image, self.bot.pack) if not c.locked}
            for card in cards.values():
                if card.slot not in self.details:
                    look = self._select(look, card)
                    if look.sighting.screen != "shop":
                        return look
            spendable = budget - sum(p.price for p in self.bought) if budget is not None else None
            choices = [(slot, d) for slot, d in self.details.items()
                       if slot in cards and slot not in self.refused and d.price is not None
                       and not d.maxed and (spendable is None or d.price <= spendable)
                       and (spendable is not None or d.buyable)]
            if not choices:
                break
            slot, _ = max(choices, key=lambda choice: choice[1].price or 0)
            look = self._select(look, cards[slot])
            detail = self.details[slot]
            if look.sighting.screen != "shop":
                return look
            if not detail.buyable or detail.price is None:
                self.refused.add(slot)
                continue
            after = self._buy(look, cards[slot], detail)
            if after is None:
                break
            look = after
        return look

    def cheapest(self) -> int | None:
        prices = [d.price for d in self.details.values() if d.price is not None and not d.maxed]
        return min(prices) if prices else None

    # -- steps ---------------------------------------------------------------------------
    def _settled(self, before: np.ndarray | None, changed: Callable[[np.ndarray], bool],
                 wait_s: float) -> Look:
        """Looks until the panel has changed (as `changed` says) and then held still for one
        look, or until `wait_s` has passed."""
        deadline = time.monotonic() + wait_s
        previous = before
        while True:
            look = self.bot.look()
            now = panel(look.image)
            if look.sighting.screen != "shop":
                return look
            still = previous is not None and previous.shape == now.shape and \
                np.array_equal(previous, now)
            if (still and changed(now)) or time.monotonic() >= deadline:
                return look
            previous = now

    def _select(self, look: Look, card: Card) -> Look:
        """Click a card and read its panel once it holds still (the card may have been
        selected already, so no change is waited for)."""
        self.bot.hands.click(look.frame, card.centre)
        look = self._settled(None, lambda now: True, SETTLE_S)
        if look.sighting.screen == "shop":
            self.details[card.slot] = read_detail(look.image, self.bot.pack.digits)
        return look

    def _buy(self, look: Look, card: Card, detail: Detail) -> Look | None:
        """Press BUY; a purchase counts once the panel has settled on a higher level or a new
        price, not on the pressed button alone."""
        name = detail.name or f"the card in slot {card.slot}"
        at = buy_button(look.image)
        self.bot.session.recorder.annotated(look.frame, "shop", [
            Mark(at[0] - 111, at[1] - 50, 222, 100, text=f"buy {name} {detail.price}",
                 color=(0, 160, 0))])
        before = panel(look.image)
        self.bot.hands.click(look.frame, at)
        after = self._settled(before, lambda now: now.shape != before.shape
                              or not np.array_equal(now, before), PURCHASE_WAIT_S)
        if after.sighting.screen != "shop":
            return None
        now = read_detail(after.image, self.bot.pack.digits)
        self.details[card.slot] = now
        if now.level > detail.level or (now.price is not None and now.price != detail.price) \
                or now.maxed:
            self.bot.watchdog.moved(time.monotonic())
            self.bought.append(Purchase(name, detail.price or 0, now.level))
            self.bot.report(f"  shop: bought {name} (level {now.level}) for "
                            f"{detail.price:,} coins")
            return after
        self.bot.report(f"  shop: {name} for {detail.price:,} was clicked but its panel did not "
                        "change; not counted as bought")
        self.refused.add(card.slot)
        return after
