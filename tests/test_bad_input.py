"""Bad input to every command: one row per case, the exit code and the start of the one line.

Rows run the real command line in this process (quick); the cases where a library could talk
on its own (OpenCV, a blocking pipe, undecodable text) run again as child processes, which
must print exactly one line on stderr and nothing on stdout.
"""

from __future__ import annotations

import base64
import json
import os
import struct
import sys
import zipfile
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests import processes
from tests.conftest import in_own_thread, run_webbot
from tests.test_cli import closed_port
from webbot.cli import main
from webbot.files import InputError, read_bytes

SMALL = {"cells": [[0, 0, None], [0, 1, 1]], "pieces": [{"value": 2, "color": "blue"}]}


def puzzle_with(**parts) -> str:
    return json.dumps({**SMALL, **parts})


def png_header(width: int, height: int) -> bytes:
    """A small PNG file that declares a huge size: its few pixel bytes would unpack to gigabytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(4096))) + chunk(b"IEND", b""))


def radiance(width: int, height: int) -> bytes:
    """A Radiance HDR picture (a kind OpenCV decodes, webbot does not) of one colour, its
    scanlines run-length coded: a few hundred bytes a line, whatever its size once decoded."""
    runs, left = b"", width
    while left:
        count = min(127, left)
        runs += bytes([128 + count, 100])
        left -= count
    line = bytes([2, 2, width >> 8, width & 255]) + runs * 4  # R, G, B and the exponent
    return (b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n" + f"-Y {height} +X {width}\n".encode()
            + line * height)


# What each file name in a row stands for; "{name}" in a row's arguments is its path.
FILES = {
    "ok.json": puzzle_with(),
    "unsolvable.json": json.dumps({"cells": [[0, 0, None], [0, 1, 1]],
                                   "pieces": [{"value": 1, "color": "blue"}]}),
    "not-json.json": "{cells: nope",
    "latin1.json": b'{"cells": [], "note": "caf\xe9"}',
    "deep.json": "[" * 5000 + "]" * 5000,
    "deep-ok-for-python.json": '{"cells": ' + "[" * 100 + "]" * 100 + ', "pieces": []}',
    "long-number.json": '{"cells": [[0, 0, ' + "9" * 5000 + ']], "pieces": []}',
    "big.json": " " * (2 << 20) + "{}",
    "cell-not-list.json": puzzle_with(cells=[5, [0, 1, 1]]),
    "piece-string.json": puzzle_with(pieces=["2 blue"]),
    "sums-not-list.json": puzzle_with(sums={"line": "row"}),
    "huge-target.json": puzzle_with(sums=[{"line": "row", "index": 0, "target": 10**30}]),
    "huge-row.json": puzzle_with(cells=[[10**6, 0, None], [0, 1, 1]]),
    "many-cells.json": json.dumps({"cells": [[r, c, None] for r in range(60) for c in range(60)],
                                   "pieces": []}),
    "float-value.json": puzzle_with(pieces=[{"value": 2.0, "color": "blue"}]),
    "bool-value.json": puzzle_with(pieces=[{"value": True, "color": "blue"}]),
    "green.json": puzzle_with(pieces=[{"value": 2, "color": "green"}]),
    "twice.json": puzzle_with(cells=[[0, 0, None], [0, 0, 1]]),
    "array.json": "[1, 2, 3]",
    "empty.json": "",
    "big-board.json": json.dumps({
        "cells": [[r, c, None] for r in range(30) for c in range(30)],
        "pieces": [{"value": (r + c) % 30} for r in range(30) for c in range(30)]}),
    "text.png": "not a picture",
    "empty.png": b"",
    "huge.png": png_header(100_000, 100_000),
    "tiny.png": "tiny",  # replaced by a real 8x8 picture below
    "blank.png": "blank",  # replaced by a real 800x600 white picture below
    "hdr.png": "hdr",  # replaced by a real HDR picture below, named .png
    "tiff.png": "tiff",  # replaced by a real TIFF picture below, named .png
    "huge-hdr.png": b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 100000 +X 100000\n" + bytes(64),
    "bad-header.png": b"\x89PNG\r\n\x1a\n" + b"not a header" * 4,
}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("bad-inputs")
    for name, content in FILES.items():
        data = content if isinstance(content, bytes) else content.encode()
        (folder / name).write_bytes(data)
    cv2.imwrite(str(folder / "tiny.png"), np.zeros((8, 8, 3), np.uint8))
    cv2.imwrite(str(folder / "blank.png"), np.full((600, 800, 3), 255, np.uint8))
    (folder / "a-folder").mkdir()
    with zipfile.ZipFile(folder / "other.zip", "w") as archive:  # a zip, but not a trace
        archive.writestr("notes.txt", "hello")
    os.mkfifo(folder / "pipe")
    for shot in ("ring.png", "results.png", "a-folder/ring.png"):  # white, 800x600
        cv2.imwrite(str(folder / shot), np.full((600, 800, 3), 255, np.uint8))
    (folder / "pack").mkdir()
    (folder / "pack" / "bison-health-bar.png").write_text("broken")
    for kind, name in ((".hdr", "hdr.png"), (".tiff", "tiff.png")):  # kinds OpenCV decodes
        cv2.imwrite(str(folder / f"made{kind}"), np.full((60, 80, 3), 200, np.uint8))
        (folder / f"made{kind}").rename(folder / name)
    (folder / "hdr-pack" / "digits").mkdir(parents=True)  # a pack's taught digit, an HDR
    (folder / "hdr-pack" / "digits" / "3-a.png").write_bytes(radiance(300, 200))
    return folder


# (arguments, exit code, the line's start after "webbot: error: "); {d} is the inputs folder,
# {dead} a URL where no server answers (filled in when the test runs: ids stay the same).
ROWS = [
    # puzzle files: the file itself
    ("puzlogic solve {d}/missing.json", 2, "{d}/missing.json: no such file"),
    ("puzlogic solve {d}/a-folder", 2, "{d}/a-folder is a folder, not a file"),
    ("puzlogic solve {d}/pipe", 2, "{d}/pipe is a named pipe, not a file"),
    ("puzlogic solve /dev/zero", 2, "/dev/zero is a device, not a file"),
    ("puzlogic solve {d}/big.json", 2, "{d}/big.json is 2.0 MB; the most read is 1.0 MB"),
    ("puzlogic solve {d}/latin1.json", 2, "{d}/latin1.json is not UTF-8 text (byte 0xe9"),
    ("puzlogic solve {d}/empty.json", 2, "{d}/empty.json is not JSON: Expecting value"),
    ("puzlogic solve {d}/not-json.json", 2, "{d}/not-json.json is not JSON"),
    ("puzlogic solve {d}/deep.json", 2, "{d}/deep.json: JSON nested"),
    ("puzlogic solve {d}/deep-ok-for-python.json", 2, "{d}/deep-ok-for-python.json: JSON nested "
                                                      "more than 32 deep"),
    ("puzlogic solve {d}/long-number.json", 2, "{d}/long-number.json: a number in it is "
                                               "thousands of digits long"),
    # puzzle files: the schema
    ("puzlogic solve {d}/array.json", 2, "{d}/array.json: expected a JSON object"),
    ("puzlogic solve {d}/cell-not-list.json", 2, "{d}/cell-not-list.json: cells[0]: expected "
                                                 "[row, col, value], got 5"),
    ("puzlogic solve {d}/piece-string.json", 2, "{d}/piece-string.json: pieces[0]: expected "
                                                '{"value", "color"}'),
    ("puzlogic solve {d}/sums-not-list.json", 2, "{d}/sums-not-list.json: sums: expected a list"),
    ("puzlogic solve {d}/huge-target.json", 2, "{d}/huge-target.json: sums[0].target: expected a "
                                               "whole number from 0 to 4950"),
    ("puzlogic solve {d}/huge-row.json", 2, "{d}/huge-row.json: cells[0][0]: expected the row"),
    ("puzlogic solve {d}/many-cells.json", 2, "{d}/many-cells.json: cells: expected a list of at "
                                              "most 2500 cells"),
    ("puzlogic solve {d}/float-value.json", 2, "{d}/float-value.json: pieces[0].value: expected "
                                               "a whole number from 0 to 99, got 2.0"),
    ("puzlogic solve {d}/bool-value.json", 2, "{d}/bool-value.json: pieces[0].value: expected a "
                                              "whole number from 0 to 99, got True"),
    ("puzlogic solve {d}/green.json", 2, "{d}/green.json: pieces[0].color: expected \"blue\" or "
                                         "\"white\", got 'green'"),
    ("puzlogic solve {d}/twice.json", 2, "{d}/twice.json: cells[1]: cell (0, 0) is listed twice"),
    # puzzle files: the search
    ("puzlogic solve {d}/unsolvable.json", 1, "{d}/unsolvable.json: the puzzle has no solution"),
    ("puzlogic solve {d}/big-board.json --solver bruteforce", 1,
     "the bruteforce solver cannot finish a search of 900 free cells"),
    ("puzlogic solve {d}/ok.json --timeout 0", 2, "Invalid value for '--timeout'"),
    ("puzlogic solve {d}/ok.json --timeout nan", 2, "Invalid value for '--timeout'"),
    ("puzlogic solve {d}/ok.json --all --limit 0", 2, "Invalid value for '--limit'"),
    ("puzlogic solve {d}/ok.json --solver magic", 2, "Invalid value for '--solver'"),
    # screenshots
    ("puzlogic read {d}/missing.png", 2, "{d}/missing.png: no such file"),
    ("puzlogic read {d}/text.png", 2, "{d}/text.png is not an image that can be decoded"),
    ("puzlogic read {d}/empty.png", 2, "{d}/empty.png is not an image that can be decoded"),
    ("puzlogic read {d}/huge.png", 2,
     "{d}/huge.png is too large a picture (100000x100000)"),
    ("puzlogic read {d}/pipe", 2, "{d}/pipe is a named pipe, not a file"),
    # kinds of picture OpenCV decodes but webbot does not read (their size is not checked)
    ("puzlogic read {d}/hdr.png", 2,
     "{d}/hdr.png is not an image that can be decoded (PNG, JPEG, GIF, BMP, WebP)"),
    ("daily-set classify {d}/huge-hdr.png", 2,
     "{d}/huge-hdr.png is not an image that can be decoded (PNG, JPEG, GIF, BMP, WebP)"),
    ("daily-set read {d}/tiff.png", 2,
     "{d}/tiff.png is not an image that can be decoded (PNG, JPEG, GIF, BMP, WebP)"),
    ("burrito-bison classify {d}/bad-header.png", 2,
     "{d}/bad-header.png is not an image that can be decoded (PNG, JPEG, GIF, BMP, WebP): its "
     "PNG header cannot be read, so its size is unknown"),
    ("burrito-bison read {d}/blank.png --templates {d}/hdr-pack", 2,
     "{d}/hdr-pack/digits/3-a.png is not an image that can be decoded"),
    ("puzlogic read {d}/blank.png", 1, "{d}/blank.png shows no Puzlogic level"),
    ("puzlogic read {d}/blank.png --annotate {d}/out.txt", 1, "{d}/blank.png shows no"),
    ("daily-set classify {d}/missing.gif", 2, "{d}/missing.gif: no such file"),
    ("daily-set classify {d}/text.png", 2, "{d}/text.png is not an image that can be decoded"),
    ("daily-set classify {d}/huge.png", 2, "{d}/huge.png is too large a picture"),
    ("daily-set classify /dev/zero", 2, "/dev/zero is a device, not a file"),
    ("daily-set classify {d}/blank.png", 1, "{d}/blank.png: no coloured shape on the card"),
    ("burrito-bison classify {d}/missing.png", 2, "{d}/missing.png: no such file"),
    ("burrito-bison classify {d}/text.png", 2, "{d}/text.png is not an image that can be decoded"),
    ("burrito-bison classify {d}/tiny.png", 1, "{d}/tiny.png is too small (8x8)"),
    ("burrito-bison classify {d}/blank.png --templates {d}/nowhere", 2,
     "template pack {d}/nowhere is not a folder"),
    ("burrito-bison classify {d}/blank.png --templates {d}/pack", 2,
     "{d}/pack/bison-health-bar.png is not an image that can be decoded"),
    ("burrito-bison pack cut {d}/blank.png --out {d}/cut", 1,
     "blank.png: name the screenshots after their screens: title.png, comic.png, ring.png"),
    ("burrito-bison pack cut {d}/rocket-ready.png --out {d}/cut", 2,
     "{d}/rocket-ready.png: no such file"),
    ("burrito-bison pack cut {d}/ring.png {d}/a-folder/ring.png --out {d}/cut", 1,
     "two screenshots of ring: {d}/ring.png and {d}/a-folder/ring.png"),
    ("burrito-bison pack cut {d}/ring.png --out {d}/cut", 1,
     "one 800x600 screenshot does not show where the game is"),
    ("burrito-bison pack cut {d}/ring.png {d}/results.png --out {d}/cut", 1,
     "no game-shaped region changes between the screenshots"),
    ("burrito-bison pack cut {d}/ring.png --box 0,0,1173,660 --out {d}/cut", 1,
     "the game's box 1173x660 at 0,0 is not inside the 800x600 screenshot"),
    ("burrito-bison pack cut {d}/ring.png --box 1,2,3 --out {d}/cut", 2,
     "Invalid value for '--box': '1,2,3': expected X,Y,WIDTH,HEIGHT"),
    ("burrito-bison pack cut {d}/ring.png", 2, "Missing option '--out'"),
    # a folder where a file is read, in every command that reads files (checked before any
    # file is read: the good picture before it is not read either)
    ("puzlogic read {d}/a-folder", 2, "{d}/a-folder is a folder, not a file"),
    ("daily-set read {d}/a-folder", 2, "{d}/a-folder is a folder, not a file"),
    ("daily-set read {d}/blank.png {d}/a-folder", 2, "{d}/a-folder is a folder, not a file"),
    ("daily-set classify {d}/blank.png {d}/a-folder", 2, "{d}/a-folder is a folder, not a file"),
    ("burrito-bison classify {d}/blank.png {d}/a-folder", 2,
     "{d}/a-folder is a folder, not a file"),
    ("burrito-bison read {d}/a-folder", 2, "{d}/a-folder is a folder, not a file"),
    ("burrito-bison pack cut {d}/ring.png {d}/a-folder --out {d}/cut", 2,
     "{d}/a-folder is a folder, not a file"),
    ("trace {d}/a-folder", 2, "{d}/a-folder: no trace here"),
    ("trace {d}/tiny.png", 2, "{d}/tiny.png: not a Playwright trace (not a zip file)"),
    ("trace {d}/other.zip", 2, "{d}/other.zip: not a Playwright trace (a zip without the "
                               "trace's actions)"),
    # options
    ("puzlogic --levels 0", 2, "Invalid value for '--levels': '0': levels go from 1 to 15"),
    ("puzlogic --levels 3-99", 2, "Invalid value for '--levels': '3-99': levels go from 1 to 15"),
    ("puzlogic --levels one", 2, "Invalid value for '--levels': 'one' is not a list of levels"),
    ("puzlogic --url notaurl", 2, "Invalid value for '--url': 'notaurl': expected a URL"),
    ("puzlogic --url http://:80/", 2, "Invalid value for '--url': 'http://:80/' has no host"),
    ("puzlogic --url http://127.0.0.1:99999/", 2, "Invalid value for '--url'"),
    ("puzlogic --connect localhost:3000", 2, "Invalid value for '--connect'"),
    ("puzlogic --slow-mo -1", 2, "Invalid value for '--slow-mo'"),
    ("puzlogic --slow-mo inf", 2, "Invalid value for '--slow-mo'"),
    ("daily-set --url ftp://example.org/", 2, "Invalid value for '--url'"),
    ("daily-set read file:///etc/passwd", 2, "Invalid value for 'URL'"),
    ("burrito-bison --rounds 0", 2, "Invalid value for '--rounds'"),
    ("burrito-bison --rounds 10000000", 2, "Invalid value for '--rounds'"),
    ("burrito-bison --minutes nan", 2, "Invalid value for '--minutes': 'nan' is not a number"),
    ("burrito-bison --minutes -5", 2, "Invalid value for '--minutes'"),
    ("burrito-bison --stuck-after 0", 2, "Invalid value for '--stuck-after'"),
    ("burrito-bison --rounds 2 --minutes 1", 2, "give --rounds or --minutes, not both"),
    ("serve --port 70000", 2, "Invalid value for '--port'"),
    # what will be written, checked before anything starts
    ("soak puzlogic --count 1 --jsonl {d}/no-folder/games.jsonl", 2,
     "Invalid value for '--jsonl': {d}/no-folder/games.jsonl: cannot be written (no folder"),
    ("soak puzlogic --count 1 --jsonl /proc/games.jsonl", 2,
     "Invalid value for '--jsonl': /proc/games.jsonl: cannot be written"),
    ("soak puzlogic --count 1 --resume", 2, "--resume goes on from the records of --jsonl FILE"),
    ("soak puzlogic --count 1 --jsonl {d}/a-folder", 2,
     "Invalid value for '--jsonl': {d}/a-folder: a folder, not a file"),
    ("puzlogic --debug-dir {d}/text.png", 2,
     "Invalid value for '--debug-dir': {d}/text.png: not a folder"),
    ("puzlogic read {d}/blank.png --annotate /proc/seen.png", 2,
     "Invalid value for '--annotate': /proc/seen.png: cannot be written"),
    ("daily-set read {d}/blank.png --annotate /proc/seen.png", 2,
     "Invalid value for '--annotate': /proc/seen.png: cannot be written"),
    ("puzlogic read {d}/blank.png --annotated /proc/seen.png", 2,  # the name it had before
     "Invalid value for '--annotated': /proc/seen.png: cannot be written"),
    ("puzlogic --keep 5", 2, "--keep N keeps the latest frames of --debug-dir DIR; give the "
                             "folder too"),
    ("daily-set --report /proc/run.html", 2,
     "Invalid value for '--report': /proc/run.html: cannot be written"),
    ("burrito-bison pack cut {d}/ring.png --out /proc/pack", 2,
     "Invalid value for '--out': /proc/pack: cannot be written"),
    ("puzlogic --game-selector canvas[[", 2,
     "Invalid value for '--game-selector': 'canvas[[': not a CSS selector"),
    ("no-such-game", 2, "No such command 'no-such-game'"),
    # a dead server
    ("daily-set read {dead}", 1, "page {dead}: cannot load (connection refused)"),
    ("puzlogic --url {dead}", 1, "cannot open {dead}: connection refused"),
    ("puzlogic --url file:///no/such/page.html", 1,
     "cannot open file:///no/such/page.html: no such file"),
    ("daily-set --url http://127.0.0.1:1/", 1,
     "cannot open http://127.0.0.1:1/: Chromium refuses to open that port"),
]


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def filled(text: str, inputs: Path, dead: str) -> str:
    return text.replace("{d}", str(inputs)).replace("{dead}", dead)


@pytest.fixture(scope="module")
def dead() -> str:
    return f"http://127.0.0.1:{closed_port()}/"


@pytest.mark.parametrize(("args", "code", "start"), ROWS, ids=[row[0] for row in ROWS])
def test_bad_input_gets_one_line_and_an_exit_code(inputs, dead, capfd, args, code, start):
    exit_code = in_own_thread(main, filled(args, inputs, dead).split())
    out, err = capfd.readouterr()
    line = one_line(err)
    assert (exit_code, out) == (code, "")
    assert line.startswith("webbot: error: " + filled(start, inputs, dead)), line


@pytest.mark.parametrize("kind", ["a folder", "a named pipe"])
def test_the_reader_refuses_what_is_not_a_file(inputs, kind):
    """The gate itself (the soak's --resume reads its records through it): a folder too, which
    Python's own file object would refuse with an IsADirectoryError."""
    path = inputs / ("a-folder" if kind == "a folder" else "pipe")
    with pytest.raises(InputError, match=f"^{path} is {kind}, not a file$"):
        read_bytes(path, 1000)


NOISY = ["puzlogic read {d}/text.png", "daily-set classify {d}/empty.png",
         "puzlogic read {d}/hdr.png", "daily-set classify {d}/bad-header.png",
         "burrito-bison classify {d}/text.png", "puzlogic solve {d}/pipe",
         "puzlogic solve {d}/latin1.json", "puzlogic solve {d}/deep.json",
         "daily-set read {dead}"]


@pytest.mark.parametrize("args", NOISY)
def test_no_library_noise_in_a_fresh_process(inputs, dead, args):
    result = run_webbot(*filled(args, inputs, dead).split(), timeout=60)
    assert result.returncode in (1, 2) and result.stdout == ""
    assert one_line(result.stderr).startswith("webbot: error: ")


def jpeg_libjpeg_warns_of(image: np.ndarray) -> bytes:
    """A JPEG whose scan header says a sequential scan ends at coefficient 62, not 63: libjpeg
    decodes it all the same and writes "Invalid SOS parameters for sequential JPEG" straight
    to the process's stderr (a phone's photo did so)."""
    data = bytearray(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes())
    scan = data.index(b"\xff\xda")
    data[scan + 5 + 2 * data[scan + 4] + 1] = 62  # Se
    return bytes(data)


def test_a_c_library_s_warning_is_kept_off_the_terminal(tmp_path, capfd):
    from webbot.inputs import decode_image
    from webbot.server import fixtures_root

    card = cv2.imread(str(fixtures_root() / "daily-set/images/setcards/new/1.png"))
    path = tmp_path / "card.jpg"
    path.write_bytes(jpeg_libjpeg_warns_of(card))
    assert decode_image(path.read_bytes(), "card.jpg").shape == card.shape
    assert capfd.readouterr().err == ""  # at the descriptor, where libjpeg writes
    done = run_webbot("daily-set", "classify", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "1 " in done.stdout


def test_pictures_decoded_in_threads_leave_stderr_where_it_was(tmp_path):
    """A page's card pictures are decoded six at a time: stderr (where the run's error line
    goes) is still the process's own afterwards."""
    from concurrent.futures import ThreadPoolExecutor

    from webbot.inputs import decode_image

    data = jpeg_libjpeg_warns_of(np.full((62, 95, 3), 250, np.uint8))
    before = os.fstat(2)
    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(lambda k: decode_image(data, f"{k}.jpg"), range(60)))
    decode_image(data, "main.jpg")
    after = os.fstat(2)
    assert (after.st_dev, after.st_ino) == (before.st_dev, before.st_ino)


MEASURED = """
import resource, sys
from webbot.cli import main
code = main(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)  # MB
sys.exit(code)
"""


def peak_mb(*args: str) -> tuple[int, int, str]:
    """A command run in a fresh process: its exit code, its peak memory (MB), its stderr."""
    done = processes.run([sys.executable, "-c", MEASURED, *args], timeout=120)
    return done.returncode, int(done.stdout.strip().splitlines()[-1]), done.stderr


def test_a_picture_of_another_kind_is_refused_before_it_is_decoded(inputs, tmp_path):
    """An HDR picture named .png, 4 MB on disk and 8000x8000 decoded (OpenCV took 980 MB for
    it): refused from its first bytes, at the memory a small picture's read takes."""
    photo = tmp_path / "photo.png"
    photo.write_bytes(radiance(8000, 8000))
    code, peak, err = peak_mb("puzlogic", "read", str(photo))
    assert code == 2
    assert one_line(err) == (f"webbot: error: {photo} is not an image that can be decoded "
                             "(PNG, JPEG, GIF, BMP, WebP)")
    code, small, _ = peak_mb("puzlogic", "read", str(inputs / "tiny.png"))
    assert code == 1
    assert peak < small + 100, (peak, small)


OPENCV_ALONE = """
import sys
import webbot  # before OpenCV is loaded, as the command's own modules are imported
import cv2, numpy
data = open(sys.argv[1], "rb").read()
try:
    picture = cv2.imdecode(numpy.frombuffer(data, numpy.uint8), cv2.IMREAD_COLOR)
    print("decoded", None if picture is None else picture.shape)
except cv2.error as exc:
    print("refused", "CV_IO_MAX_IMAGE_PIXELS" in str(exc))
"""


def test_opencv_s_own_cap_is_a_second_wall(tmp_path):
    """Past the gate, OpenCV itself refuses a picture of more than MAX_IMAGE_PIXELS: webbot
    sets OPENCV_IO_MAX_IMAGE_PIXELS before OpenCV is loaded, which reads it then (a PNG of
    7000x7000, 49 million pixels, declared by its header, its pixels never sent)."""
    from webbot.inputs import MAX_IMAGE_PIXELS

    path = tmp_path / "big.png"
    path.write_bytes(png_header(7000, 7000))
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_IO_MAX_IMAGE_PIXELS"}
    done = processes.run([sys.executable, "-c", OPENCV_ALONE, str(path)], timeout=60, env=env)
    assert done.stdout.split() == ["refused", "True"], done.stdout + done.stderr
    done = processes.run([sys.executable, "-c", "import os, webbot; "
                          "print(os.environ['OPENCV_IO_MAX_IMAGE_PIXELS'])"], timeout=60, env=env)
    assert done.stdout.strip() == str(MAX_IMAGE_PIXELS)


def test_a_picture_from_the_browser_that_is_refused_is_a_failed_run():
    """Screenshots and screencast frames pass the same gate; refused, the run failed (exit 1),
    the user gave nothing bad."""
    from webbot.errors import WebbotError
    from webbot.inputs import decode_page_picture
    from webbot.stream import StreamFrame

    with pytest.raises(WebbotError, match=r"too large a picture \(100000x100000\)") as refused:
        decode_page_picture(png_header(100_000, 100_000), "a screenshot")
    assert not isinstance(refused.value, InputError)
    huge = StreamFrame(base64.b64encode(png_header(100_000, 100_000)).decode(), 0, 0, 0, 0, 1)
    assert huge.image() is None  # not used: a picture is pulled instead
    assert StreamFrame("not base64!", 0, 0, 0, 0, 1).image() is None


def test_levels_of_thousands_of_digits_are_one_line():
    from webbot.puzlogic.cli import levels_from_spec

    with pytest.raises(ValueError, match=r"^'9{20}.*: levels go from 1 to 15$"):
        levels_from_spec("9" * 5000)
    with pytest.raises(ValueError, match="is not a list of levels"):
        levels_from_spec("\u0663")  # an Arabic-Indic 3: int() would take it
