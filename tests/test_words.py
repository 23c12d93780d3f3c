from webbot.words import counted


def test_one_is_singular_and_any_other_count_plural():
    assert counted(1, "round") == "1 round"
    assert [counted(n, "game") for n in (0, 2)] == ["0 games", "2 games"]
    assert counted(1, "lost page") == "1 lost page" and counted(3, "lost page") == "3 lost pages"
    assert counted(2, "die", "dice") == "2 dice"
