"""A folder is webbot's before webbot writes or deletes in it: a profile, a debug folder, a
template pack. A user's own folder named by mistake (`--profile ~/thesis`), a symbolic link
where a profile or a file of webbot's goes, a file of the user's in a pack: each is refused or
left alone, never emptied or written through; what webbot keeps is private to the user."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tests.conftest import run_webbot
from webbot import folders
from webbot.folders import MARK, NotOurs
from webbot.profile import (
    LOCK,
    PORT,
    PROFILE,
    clear,
    default_profile,
    profile_lock,
    remember_port,
    remembered_port,
)


def _thesis(home: Path) -> Path:
    """A user's folder of their own work, with a file and a folder in it."""
    thesis = home / "thesis"
    (thesis / "chapters").mkdir(parents=True)
    (thesis / "draft.tex").write_text("years of work")
    (thesis / "chapters" / "one.tex").write_text("a chapter")
    return thesis


def _intact(thesis: Path) -> bool:
    return ((thesis / "draft.tex").read_text() == "years of work"
            and (thesis / "chapters" / "one.tex").read_text() == "a chapter")


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_profile_clear_refuses_a_users_folder_and_leaves_it_as_it_was(tmp_path):
    thesis = _thesis(tmp_path)
    done = run_webbot("profile", "--profile", str(thesis), "clear")
    assert done.returncode == 2
    assert done.stderr == (f"webbot: error: Invalid value for '--profile': {thesis} is not a "
                           "webbot profile (it holds other files): name a new or empty folder "
                           "for it (see 'webbot profile --help')\n")
    assert _intact(thesis) and sorted(os.listdir(thesis)) == ["chapters", "draft.tex"]
    with pytest.raises(NotOurs):
        clear(thesis)
    assert _intact(thesis)


@pytest.mark.parametrize(("args", "option", "kind"), [
    (("puzlogic", "--profile"), "--profile", "profile"),
    (("check", "--debug-dir"), "--debug-dir", "debug folder"),
])
def test_a_users_folder_is_refused_before_a_browser_starts(tmp_path, args, option, kind):
    thesis = _thesis(tmp_path)
    done = run_webbot(*args, str(thesis))
    assert done.returncode == 2
    assert f"Invalid value for '{option}'" in done.stderr
    assert f"is not a webbot {kind} (it holds other files)" in done.stderr
    assert _intact(thesis) and sorted(os.listdir(thesis)) == ["chapters", "draft.tex"]


def test_the_default_profile_as_a_link_to_a_users_folder_is_refused_and_not_emptied(tmp_path):
    thesis = _thesis(tmp_path)
    profile = default_profile()  # (under this test's own XDG_DATA_HOME)
    profile.parent.mkdir(parents=True)
    profile.symlink_to(thesis, target_is_directory=True)
    for args in (("profile", "clear"), ("profile",), ("puzlogic", "--levels", "1")):
        done = run_webbot(*args)
        assert done.returncode == 2, args
        assert done.stderr == (f"webbot: error: {profile} is a symbolic link: name the folder "
                               "itself for the profile\n"), args
    assert _intact(thesis) and sorted(os.listdir(thesis)) == ["chapters", "draft.tex"]


def test_a_profile_is_made_private_and_marked_and_its_lock_and_port_follow_no_link(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    profile = tmp_path / "profile"
    with profile_lock(profile):
        assert _mode(profile) == 0o700
        assert folders.mark_of(profile) == ["webbot profile"]
        assert _mode(profile / LOCK) == 0o600
    (profile / LOCK).unlink()
    (profile / LOCK).symlink_to(victim)
    linked = r"^cannot use the profile .*: its lock .* is a symbolic link$"
    with pytest.raises(Exception, match=linked), profile_lock(profile):
        pass
    assert victim.read_text() == "mine"
    (profile / LOCK).unlink()
    (profile / PORT).symlink_to(victim)
    assert remembered_port(profile) is None  # (a link is not read through either)
    remember_port(profile, 8123)
    assert victim.read_text() == "mine"
    assert not (profile / PORT).is_symlink() and remembered_port(profile) == 8123


def test_clear_removes_a_link_inside_the_profile_not_what_it_leads_to(tmp_path):
    thesis = _thesis(tmp_path)
    profile = tmp_path / "profile"
    with profile_lock(profile):
        (profile / "Default").mkdir()
        (profile / "Default" / "Cookies").write_text("cookies")
        (profile / "Default" / "linked").symlink_to(thesis, target_is_directory=True)
        (profile / "to-thesis").symlink_to(thesis, target_is_directory=True)
    clear(profile)
    assert sorted(os.listdir(profile)) == [MARK, LOCK]
    assert _intact(thesis)


def test_a_profile_made_before_marks_is_known_by_chromiums_files_and_marked(tmp_path):
    old = tmp_path / "old-profile"
    (old / "Default").mkdir(parents=True)
    (old / LOCK).write_text("")
    (old / "Local State").write_text("{}")
    folders.check(old, PROFILE)
    with profile_lock(old):
        assert folders.mark_of(old) == ["webbot profile"]
    cleared = tmp_path / "cleared"  # one `profile clear` emptied: its lock alone
    cleared.mkdir()
    (cleared / LOCK).write_text("")
    folders.check(cleared, PROFILE)
    lookalike = tmp_path / "lookalike"  # Chromium's files without webbot's lock: not ours
    lookalike.mkdir()
    (lookalike / "Local State").write_text("{}")
    with pytest.raises(NotOurs, match="is not a webbot profile"):
        folders.check(lookalike, PROFILE)


def test_a_folder_of_another_kind_or_with_a_forged_mark_is_refused(tmp_path):
    debug = folders.claim(tmp_path / "debug", folders.DEBUG)
    with pytest.raises(NotOurs, match=r"is a webbot debug folder, not a profile$"):
        folders.check(debug, PROFILE)
    forged = tmp_path / "forged"
    forged.mkdir()
    (forged / MARK).write_text("anything\n")
    with pytest.raises(NotOurs, match="is not webbot's mark"):
        folders.check(forged, PROFILE)
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / MARK).symlink_to(debug / MARK)  # a mark read through a link is no mark
    with pytest.raises(NotOurs, match="is not webbot's mark"):
        folders.check(linked, folders.DEBUG)


def test_a_debug_folder_written_before_folders_were_marked_is_taken(tmp_path):
    old = tmp_path / "old-debug"
    old.mkdir()
    for name in ("0001-level-01.png", "trace.zip", "recoveries.txt", "failure"):
        (old / name).touch()
    folders.check(old, folders.DEBUG)
    (old / "notes.txt").touch()  # but not with a file of the user's among them
    with pytest.raises(NotOurs, match="is not a webbot debug folder"):
        folders.check(old, folders.DEBUG)


def test_what_a_debug_run_keeps_is_private_and_written_through_no_link(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    debug = folders.claim(tmp_path / "debug", folders.DEBUG)
    (debug / "trace.zip").symlink_to(victim)
    (debug / "0001-page.png").symlink_to(victim)  # (the name of check's first frame)
    done = run_webbot("check", "--debug-dir", str(debug))
    assert done.returncode == 0, done.stderr
    assert victim.read_text() == "mine"
    assert _mode(debug) == 0o700
    assert not (debug / "trace.zip").is_symlink() and _mode(debug / "trace.zip") == 0o600
    frames = sorted(debug.glob("*.png"))
    assert frames and all(not frame.is_symlink() and _mode(frame) == 0o600 for frame in frames)


def test_a_report_is_private_and_replaces_a_link_in_its_place(tmp_path):
    from webbot.report import RunReport

    victim = tmp_path / "victim.html"
    victim.write_text("mine")
    page = tmp_path / "run.html"
    page.symlink_to(victim)
    RunReport(page).write("webbot check", "", None)
    assert victim.read_text() == "mine"
    assert not page.is_symlink() and _mode(page) == 0o600


def test_remove_made_removes_only_what_the_mark_names_and_no_way_out(tmp_path):
    pack = folders.claim(tmp_path / "pack", folders.PACK)
    (pack / "digits").mkdir()
    for name in ("digits/1-shop-pip.png", "digits/mine.png", "outside.png"):
        (pack / name).write_text(name)
    (tmp_path / "secret.png").write_text("secret")
    folders.record(pack, folders.PACK, ["digits/1-shop-pip.png", "../secret.png"])
    folders.remove_made(pack, ["digits/1-shop-pip.png", "digits/mine.png", "../secret.png"])
    assert not (pack / "digits" / "1-shop-pip.png").exists()
    assert (pack / "digits" / "mine.png").exists() and (tmp_path / "secret.png").exists()


def test_the_driver_s_compile_cache_is_kept_in_webbot_s_own_folder(tmp_path, monkeypatch):
    from webbot.cache import keep_node_compile_cache

    monkeypatch.setenv("WEBBOT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("NODE_COMPILE_CACHE", raising=False)
    keep_node_compile_cache()
    folder = tmp_path / "cache" / "node"
    assert os.environ["NODE_COMPILE_CACHE"] == str(folder)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    # A user's own setting stays; a link where the folder goes is not written through.
    monkeypatch.setenv("NODE_COMPILE_CACHE", "/theirs")
    keep_node_compile_cache()
    assert os.environ["NODE_COMPILE_CACHE"] == "/theirs"
    monkeypatch.delenv("NODE_COMPILE_CACHE")
    monkeypatch.setenv("WEBBOT_CACHE_DIR", str(tmp_path / "other"))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "node").symlink_to(tmp_path / "elsewhere")
    keep_node_compile_cache()
    assert "NODE_COMPILE_CACHE" not in os.environ
