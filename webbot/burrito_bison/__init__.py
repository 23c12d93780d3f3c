"""Burrito Bison: launch, fly, grind coins."""

from webbot.registry import Registration

REGISTRATION = Registration(
    name="burrito-bison", title="Burrito Bison", page="burrito-bison/index.html",
    commands="webbot.burrito_bison.cli:command", replica="webbot.burrito_bison.replica",
    soak="a run of --rounds at one of the four real sizes",
    player="webbot.burrito_bison.bot:player")
