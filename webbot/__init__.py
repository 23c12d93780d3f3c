"""webbot: plays web games through a real browser, from pixels, with in-page mouse events."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("webbot")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
