"""Registers webbot's environments the moment Gymnasium is imported, so that
`gymnasium.make("webbot/Puzlogic-v0")` works without `import webbot.gym` first: Gymnasium 1.x
loads no plugins of its own. scripts/setup.sh puts a `webbot-gym.pth` in the environment that
imports this module when Python starts; it costs a start a finder on `sys.meta_path` (no
Gymnasium, no game, no browser) and does nothing until `gymnasium` itself is imported."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # (as typing's, without importing typing at every start)
if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType


class _AfterGymnasium:
    """A finder on `sys.meta_path` (importlib.abc.MetaPathFinder's one method, without the
    abc's imports at every start) that finds nothing itself: when `gymnasium` is asked for,
    its own spec is taken from the other finders and its loading followed by webbot.gym's
    registrations."""

    def find_spec(self, name: str, path: object = None, target: ModuleType | None = None
                  ) -> ModuleSpec | None:
        if name != "gymnasium":
            return None
        sys.meta_path.remove(self)  # once: Gymnasium found, and this finder gone
        spec = next(filter(None, (finder.find_spec(name, path, target)
                                  for finder in sys.meta_path
                                  if hasattr(finder, "find_spec"))), None)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        load = spec.loader.exec_module

        def load_and_register(module: ModuleType) -> None:
            load(module)
            # (not contextlib.suppress: every start would import contextlib)
            try:  # noqa: SIM105
                import webbot.gym  # noqa: F401  (its import registers the three)
            except ImportError:
                pass  # (webbot half installed: Gymnasium is left to work)

        spec.loader.exec_module = load_and_register  # type: ignore[method-assign]
        return spec


def install() -> None:
    """The finder put first on `sys.meta_path`, unless Gymnasium is loaded already (then
    webbot.gym is imported now) or the finder is there."""
    if "gymnasium" in sys.modules:
        import webbot.gym  # noqa: F401
    elif not any(isinstance(finder, _AfterGymnasium) for finder in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasium())


install()
