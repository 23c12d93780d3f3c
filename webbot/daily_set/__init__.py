"""The Daily SET puzzle: find the 6 sets among 12 cards."""

from webbot.registry import Registration

REGISTRATION = Registration(
    name="daily-set", title="Daily SET", page="daily-set/index.html",
    commands="webbot.daily_set.cli:command", replica="webbot.daily_set.replica",
    soak="a seeded puzzle on the old, the 2022 or the current page",
    player="webbot.daily_set.bot:player")
