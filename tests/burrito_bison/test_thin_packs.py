"""A number read with a thin pack, one cut from screenshots that do not show every digit, is
right or unreadable with the reason said, never wrong: packs cut from the replica's screens and
from the real ones, and the judging of one glyph."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.burrito_bison.conftest import GAME, REAL, needs_reference
from webbot.burrito_bison import digits
from webbot.burrito_bison.readout import NO_DIGITS, Number, read_in
from webbot.screen import Screen

REAL_TRUTH = {"results": {"distance": 774, "coins": 489, "total": 5119},
              "shop": {"coins": 883, "price": 6100}}


def replica_shots(browser, fixtures_url: str, folder: Path, queries: dict[str, str]
                  ) -> dict[str, dict]:
    """Canvas grabs of the replica's screens (name -> scene query) saved as name.png; what
    the game holds on each (its results' distance, round coins and total)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    truth = {}
    try:
        page = context.new_page()
        for name, query in queries.items():
            url = f"{fixtures_url}{GAME}?seed=5&freeze=1&{query}"
            page.goto(url)
            page.evaluate("localStorage.clear()")  # the coins another screen saved
            page.goto(url)
            page.wait_for_function("window.__burritoTest && __burritoTest.ready "
                                   "&& !__burritoTest.state().transitioning")
            grab = Screen(page, "canvas").wait_until_still(max_changed=0.05)
            cv2.imwrite(str(folder / f"{name}.png"), grab.image)
            state = page.evaluate("__burritoTest.state()")
            truth[name] = {"distance": state["distance"], "coins": state["roundCoins"],
                           "total": state["coins"]}
    finally:
        context.close()
    return truth


def cut(webbot: Callable, folder: Path, *shots: str) -> str:
    done = webbot("burrito-bison", "pack", "cut", *(str(folder / f"{shot}.png")
                                                    for shot in shots),
                  "--out", str(folder / "pack"))
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.split())


def read(webbot: Callable, *paths: Path, pack: Path) -> tuple[list[dict], str]:
    """What `read --json` and `read` say of the pictures with the pack (both exit 0)."""
    answers = []
    for json_flag in (("--json",), ()):
        done = webbot("burrito-bison", "read", *map(str, paths), "--templates", str(pack),
                      *json_flag)
        assert done.returncode == 0, done.stderr
        answers.append(done.stdout)
    return [json.loads(line) for line in answers[0].splitlines()], answers[1]


def right_or_unreadable(answer: dict, truth: dict, plain: str) -> dict[str, str]:
    """Each number right, or null with its reason in the JSON and in the plain output; the
    reasons, by number."""
    unreadable = answer.get("unreadable", {})
    for name, value in truth.items():
        if answer[name] is None:
            assert f"{name}: unreadable with this pack: {unreadable[name]}" in plain, name
        else:
            assert answer[name] == value, (name, answer)
    assert set(unreadable) == {name for name in truth if answer[name] is None}
    return unreadable


@pytest.mark.long
def test_the_reported_thin_pack_reads_no_number_wrong(webbot_here, browser, fixtures_url,
                                                     tmp_path):
    """Cut from a results screen (a total of 2,000), the missions and the piñata: no shop, so
    no level pips to learn 1-9 from, and nothing to tell a 0 from a 6, 8 or 9 (Tesseract votes
    the replica's 9 of 489 a 0). Such a pack labels no 0, and a later total of 1,176 is not
    read as 1,170 (its 6 taken for that 0) but is unreadable, and says why."""
    truth = replica_shots(browser, fixtures_url, tmp_path, {
        "results": "scene=results&coins=1511", "missions": "scene=missions",
        "pinata": "scene=pinata", "later": "scene=results&coins=687"})
    assert truth["later"]["total"] == 1176
    out = cut(webbot_here, tmp_path, "results", "missions", "pinata")
    assert "it gives shop-hud, shop-lock and the digits 1-9, from its level pips" in out
    assert "0-" not in " ".join(path.name for path in (tmp_path / "pack" / "digits").iterdir())
    (answer,), plain = read(webbot_here, tmp_path / "later.png", pack=tmp_path / "pack")
    why = right_or_unreadable(answer, truth["later"], plain)
    assert answer["total"] is None and why["total"].startswith("no glyph for ")


def test_a_pack_without_a_digit_leaves_numbers_with_it_unread(webbot_here, browser, fixtures_url,
                                                              tmp_path):
    """A pack cut from the replica's results and shop, its 0s then taken out (as a pack
    cut from screenshots that show no 0): 2,000 and 100 are unreadable (no glyph for 0),
    the numbers without a 0 read as before."""
    truth = replica_shots(browser, fixtures_url, tmp_path, {
        "results": "scene=results&coins=1511", "shop": "scene=shop&coins=2356"})
    (results, shop), plain = read_without_digit(webbot_here, tmp_path, "0")
    why = right_or_unreadable(results, truth["results"], plain)
    assert (results["distance"], results["coins"]) == (774, 489)
    assert results["total"] is None and "0" in why["total"]
    why = right_or_unreadable(shop, {"coins": 2356, "price": 100}, plain)
    assert shop["coins"] == 2356 and shop["price"] is None


def read_without_digit(webbot: Callable, folder: Path, digit: str) -> tuple[list[dict], str]:
    """The results and shop in `folder` read with a pack cut from them, less `digit`'s glyphs
    (as a pack cut from screenshots that never show it)."""
    cut(webbot, folder, "results", "shop")
    for glyph in (folder / "pack" / "digits").glob(f"{digit}-*.png"):
        glyph.unlink()
    return read(webbot, folder / "results.png", folder / "shop.png", pack=folder / "pack")


def link(folder: Path, **shots: str) -> None:
    for shot, name in shots.items():
        (folder / f"{shot}.png").symlink_to(REAL / "screens" / name)


@pytest.mark.long
@needs_reference
def test_real_thin_packs_read_no_number_wrong(webbot_here, tmp_path):
    """The real results, missions and piñata (a pack that knows no digit, whose glyphs
    Tesseract alone would misread); then the real results and shop with the pack's 6s taken
    out: the shop's 6,100 unreadable, and the total's small 5, which may be a 6."""
    link(tmp_path, results="round-finished-results.png", missions="round-finished-missions.png",
         pinata="pinata.png", shop="shop.png")
    cut(webbot_here, tmp_path, "results", "missions", "pinata")
    (answer,), plain = read(webbot_here, tmp_path / "results.png", pack=tmp_path / "pack")
    right_or_unreadable(answer, REAL_TRUTH["results"], plain)

    (results, shop), plain = read_without_digit(webbot_here, tmp_path, "6")
    why = right_or_unreadable(results, REAL_TRUTH["results"], plain)
    assert (results["distance"], results["coins"]) == (774, 489)
    assert why == {"total": "glyph 1 may be a 6, which it has no glyph for"}
    why = right_or_unreadable(shop, REAL_TRUTH["shop"], plain)
    assert shop["coins"] == 883 and shop["price"] is None and "6" in why["price"]


SCORES = {digit: 0.3 for digit in digits.LABELS}


def test_a_glyph_is_read_only_when_clear():
    assert digits.judge({**SCORES, "7": 0.9}) == digits.Judged("7")
    # as near a 3 as a 5: Tesseract's vote picks between them, and only between them
    near = {**SCORES, "3": 0.8, "5": 0.78}
    assert digits.judge(near).label is None
    assert digits.judge(near, "5") == digits.Judged("5")
    assert digits.judge(near, "8") == digits.Judged(None, "glyph 1 could be a 3 or a 5")
    # faintly like one: read only when the vote says so
    faint = {**SCORES, "8": (digits.FLOOR + digits.ACCEPT) / 2}
    assert digits.judge(faint) == digits.Judged(None, "glyph 1 is too faintly like an 8")
    assert digits.judge(faint, "8") == digits.Judged("8")
    # like none of the pack's glyphs: no vote makes it one of them
    assert digits.judge({**SCORES, "1": digits.FLOOR - 0.01}, "1", 2) == \
        digits.Judged(None, "glyph 2 is like none of its glyphs")


def test_a_glyph_of_a_digit_the_pack_lacks_is_not_read():
    """A pack without a 6 cannot tell a 6 from its 0, however clearly the glyph is nearer
    its 0 than any other glyph it has: a glyph is read then only at ALONE."""
    lacking = {label: score for label, score in SCORES.items() if label != "6"}
    looks_like_zero = {**lacking, "0": (digits.ACCEPT + digits.ALONE) / 2}
    assert digits.judge(looks_like_zero) == \
        digits.Judged(None, "glyph 1 may be a 6, which it has no glyph for")
    assert digits.judge(looks_like_zero, "6") == digits.Judged(None, "no glyph for 6")
    assert digits.judge(looks_like_zero, "0").label is None
    assert digits.judge({**lacking, "0": digits.ALONE}) == digits.Judged("0")
    # the M of a distance is no digit: a pack without one reads digits as before
    without_m = {label: score for label, score in SCORES.items() if label != "M"}
    assert digits.judge({**without_m, "7": 0.8}) == digits.Judged("7")
    assert digits.judge({**without_m, "7": 0.4}, "M") == digits.Judged(None, "no glyph for M")


def test_a_pack_without_digits_reads_no_number():
    """An older pack, or the reference's crops: no glyph to read by, and Tesseract alone is
    not trusted with the game's font."""
    ink = np.zeros((30, 40), np.float32)
    ink[5:25, 5:15] = 1
    assert read_in(ink, digits.Glyphs()) == Number(None, NO_DIGITS)
    assert read_in(np.zeros((30, 40), np.float32), digits.Glyphs()) == Number(None)
