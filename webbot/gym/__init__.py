"""webbot's games as Gymnasium environments: `import webbot.gym` registers them (importing
nothing of the games or the browser: `gymnasium.make` loads them), then
`gymnasium.make("webbot/Puzlogic-v0")` or `"webbot/DailySet-v0"`; or in one call,
`gymnasium.make("webbot.gym:webbot/Puzlogic-v0")` (Gymnasium 1.x loads no plugins; in the
set-up's environment webbot/gym_hook.py imports this when Gymnasium is imported). Reward
comes from webbot.gym.judge's wrapper alone. Gymnasium (the `gym` extra) is needed only
here."""

from __future__ import annotations

try:
    from gymnasium.envs.registration import register
except ModuleNotFoundError:  # (an extra: said in words, not as a missing module's name)
    raise ModuleNotFoundError("webbot.gym needs Gymnasium: pip install -e '.[gym]' "
                              "(scripts/setup.sh installs it)") from None

# The replica's leaves drift across the board, so no two pictures of a level are alike:
# registered as nondeterministic, as it is (Gymnasium's checker then compares no pixels).
register("webbot/Puzlogic-v0", entry_point="webbot.gym.puzlogic:PuzlogicEnv",
         nondeterministic=True, max_episode_steps=200)
# The Daily SET replica's puzzle and page are the seed's alone: deterministic.
register("webbot/DailySet-v0", entry_point="webbot.gym.daily_set:DailySetEnv",
         max_episode_steps=50)
# A game in motion, played in real time: no two runs of a seed see the same frames.
register("webbot/BurritoBison-v0", entry_point="webbot.gym.burrito_bison:BurritoBisonEnv",
         nondeterministic=True, max_episode_steps=5000)
