"""Puzlogic: place numbered pieces on a grid so no row or column repeats and sums hit targets."""

from webbot.registry import Registration

REGISTRATION = Registration(
    name="puzlogic", title="Puzlogic", page="puzlogic/index.html",
    commands="webbot.puzlogic.cli:command", replica="webbot.puzlogic.replica",
    soak="a generated level (3 to 12 pieces, every sum kind)",
    player="webbot.puzlogic.bot:player")

# The solvers' backends, each a module of webbot.puzlogic.solvers (named here, where the
# command line reads them without loading the solvers), and their time limit in seconds: far
# above a real level's solve, so reaching it means a runaway.
SOLVER_BACKENDS = ("fast", "z3", "bruteforce")
SOLVE_TIMEOUT_S = 30.0
