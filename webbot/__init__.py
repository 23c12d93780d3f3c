"""webbot: plays web games through a real browser, from pixels, with in-page mouse events."""

import os
from importlib.metadata import PackageNotFoundError, version

# OpenCV's own cap on the pixels of a picture it decodes: a second wall behind the header check
# of webbot.inputs (its MAX_IMAGE_PIXELS, the same number). OpenCV reads it when it is loaded;
# set here, it is set before any module of webbot imports cv2.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "40000000")

try:
    __version__ = version("webbot")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
