"""Aiming at a set's three cards in one round trip, and the longer way where that is not enough."""

from __future__ import annotations

from webbot.daily_set import act
from webbot.daily_set.act import Hands
from webbot.daily_set.page import CardSlot
from webbot.mouse import Mouse

# Card 1 in view and clear, card 2 under a banner, card 3 below the window, card 4 missing.
CARDS = """<body style="margin:0; height:3000px">
<a href="javascript:cardClicked(1)" style="position:absolute; left:10px; top:10px;
   width:100px; height:60px; background:#eee"><img alt="1"></a>
<a href="javascript:cardClicked(2)" style="position:absolute; left:150px; top:10px;
   width:100px; height:60px; background:#eee"></a>
<a href="javascript:cardClicked(3)" style="position:absolute; left:10px; top:2000px;
   width:100px; height:60px; background:#eee"></a>
<div style="position:fixed; left:140px; top:0; width:300px; height:100px;
   background:rgba(0,0,0,0.5)">a banner</div></body>"""


def slot(position: int) -> CardSlot:
    return CardSlot(position, f"{position}.gif", f'a[href="javascript:cardClicked({position})"]')


def test_cards_in_view_and_clear_are_aimed_at_in_one_look_the_rest_the_longer_way(page):
    page.set_viewport_size({"width": 800, "height": 600})
    page.set_content(CARDS)
    hands = Hands(page.main_frame, Mouse(page))

    aims = hands._aims([slot(1), slot(2), slot(3), slot(4)])

    assert aims == [(60, 40), None, None, None]


def test_a_page_in_a_frame_is_aimed_at_the_longer_way(page):
    page.set_content('<iframe style="width:600px; height:400px"></iframe>')
    frame = page.frames[1]
    frame.set_content(CARDS)
    hands = Hands(frame, Mouse(page))

    assert hands._aims([slot(1)]) == [None]


# Two cards with checkboxes that tick on a click; the second one lies under a banner that
# takes clicks (a late consent popup, say).
TICKING = """<body style="margin:0">
<a href="javascript:cardClicked(1)" onclick="document.querySelector('[name=A1]').checked=true"
   style="position:absolute; left:10px; top:10px; width:100px; height:60px; background:#eee"></a>
<a href="javascript:cardClicked(2)" onclick="document.querySelector('[name=A2]').checked=true"
   style="position:absolute; left:150px; top:10px; width:100px; height:60px; background:#eee"></a>
<input name="A1" type="checkbox" style="position:absolute; top:200px">
<input name="A2" type="checkbox" style="position:absolute; top:200px; left:50px">
<div style="position:fixed; left:140px; top:0; width:300px; height:100px;
   background:rgba(0,0,0,0.5)">a banner</div></body>"""


def test_a_click_a_cover_took_is_told_from_a_click_not_yet_ticked(page):
    page.set_content(TICKING)
    hands = Hands(page.main_frame, Mouse(page))
    page.mouse.click(60, 40)
    page.mouse.click(200, 40)  # on the banner

    assert hands._checked(slot(1)) == act.TICKED
    # Told at its first look, not after waiting for a tick that cannot come.
    assert hands._tick_state(slot(2)) == act.COVERED
    assert hands._checked(slot(2)) == act.COVERED
    page.evaluate("document.querySelector('div').remove()")
    assert hands._checked(slot(2)) == act.UNTICKED  # uncovered: only late, maybe


# The current page's message box, which a script fills a moment after it is asked to; and an
# alert, and a new page, for the older layouts' answers.
ANSWERS = """<body><div class="set-messages"></div><script>
function sayLater(text, ms) {
  setTimeout(() => document.querySelector(".set-messages").innerText = text, ms);
}
</script></body>"""


def counting_looks(hands: Hands) -> tuple[list[int], list[str | None]]:
    """How many times the bot looked at the message box, and how each wait ended."""
    looks, ends = [0], []
    take, wait = hands._messages, hands._until_said

    def counted() -> list[str]:
        looks[0] += 1
        return take()

    def noted(seconds: float, cover: CardSlot | None) -> str | None:
        ends.append(wait(seconds, cover))
        return ends[-1]

    hands._messages, hands._until_said = counted, noted
    return looks, ends


def test_the_page_s_answer_ends_the_wait_for_it_without_a_look_every_few_ms(page, pages_url):
    page.goto(f"{pages_url}plain.html")
    page.set_content(ANSWERS)
    hands = Hands(page.main_frame, Mouse(page))
    looks, ends = counting_looks(hands)

    page.evaluate("sayLater('Something else', 100); sayLater('GREAT! 1 Set Found', 400)")
    answer = hands._wait_answer(0, 5.0)
    assert (answer.text, answer.found) == ("GREAT! 1 Set Found", 1)
    # Woken by the page, each text it showed: a look at the start and one per text, not one
    # per 5 ms of the 400 ms, and no wait left to run out. (Each wait's end is checked as a
    # set: on a slow machine a text may already be there at a look, with no wait before it.)
    assert looks[0] <= 4 and set(ends) <= {"said"}

    ends.clear()
    page.evaluate("setTimeout(() => alert('3 Sets Found'), 300)")
    answer = hands._wait_answer(0, 5.0)
    assert answer.found == 3 and set(ends) <= {"dialog"}

    looks[0] = 0
    ends.clear()
    assert hands._wait_answer(1, 0.3) is None  # nothing said: the wait's end
    assert looks[0] <= 2 and set(ends) <= {None}

    ends.clear()
    page.evaluate("setTimeout(() => location.href = 'plain.html?done=5', 300)")
    assert hands._wait_answer(1, 5.0).left_page.endswith("plain.html?done=5")
    assert set(ends) <= {"navigated"}  # (the request, before the page it asked goes away)


def test_a_cover_over_the_last_card_ends_the_wait_for_the_answer(page):
    page.set_content(TICKING)
    hands = Hands(page.main_frame, Mouse(page))
    page.mouse.click(60, 40)
    assert hands._checked(slot(1)) == act.TICKED  # a page that ticks its boxes
    page.evaluate("document.querySelector('div').remove()")
    page.evaluate("""setTimeout(() => document.body.insertAdjacentHTML('beforeend',
        '<div style="position:fixed; inset:0; background:#0008">a popup</div>'), 300)""")
    looks, ends = counting_looks(hands)

    assert hands._wait_answer(0, 5.0, slot(2)) is None
    assert hands._hit_cover and ends == [act.COVERED]
    assert looks[0] == 2  # and what the page said meanwhile looked at once more
