"""webbot: plays web games through a real browser, from pixels, with in-page mouse events."""

import os

# OpenCV's own cap on the pixels of a picture it decodes: a second wall behind the header check
# of webbot.inputs (its MAX_IMAGE_PIXELS, the same number). OpenCV reads it when it is loaded;
# set here, it is set before any module of webbot imports cv2.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "40000000")


def __getattr__(name: str) -> str:
    # The version read when asked: reading the installed metadata is slow to import, and
    # webbot.gym_hook imports this package at every start.
    if name != "__version__":
        raise AttributeError(f"module 'webbot' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("webbot")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"
