"""Aiming at a set's three cards in one round trip (and the longer way where that is not
enough), a card's box read as a click's effect, and the page's answer waited for without
asking again and again."""

from __future__ import annotations

from webbot.daily_set.act import Hands
from webbot.daily_set.answers import PageAnswers, Woken
from webbot.daily_set.page import CardSlot
from webbot.daily_set.places import CardPlaces
from webbot.daily_set.ticks import Tick, Ticks
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
    places = CardPlaces(page.main_frame)

    assert places.middles([slot(1), slot(2), slot(3), slot(4)]) == [(60, 40), None, None, None]


def test_a_page_in_a_frame_is_aimed_at_the_longer_way(page):
    page.set_content('<iframe style="width:600px; height:400px"></iframe>')
    frame = page.frames[1]
    frame.set_content(CARDS)
    assert CardPlaces(frame).middles([slot(1)]) == [None]


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
    ticks = Ticks(page.main_frame)
    page.mouse.click(60, 40)
    page.mouse.click(200, 40)  # on the banner

    assert not ticks.page_ticks
    assert ticks.after_click(slot(1)) is Tick.TICKED and ticks.page_ticks
    # Told at its first look, not after waiting for a tick that cannot come.
    assert not ticks.cover_seen
    assert ticks.now(slot(2)) is Tick.COVERED and ticks.cover_seen
    assert ticks.after_click(slot(2)) is Tick.COVERED
    page.evaluate("document.querySelector('div').remove()")
    assert ticks.after_click(slot(2)) is Tick.UNTICKED  # uncovered: only late, maybe
    ticks.forget_covers()
    assert not ticks.cover_seen


def test_a_page_without_boxes_reads_as_ticked(page):
    page.set_content(CARDS)
    ticks = Ticks(page.main_frame)
    assert ticks.now(slot(1)) is Tick.TICKED and not ticks.page_ticks


# The current page's message box, which a script fills a moment after it is asked to; and an
# alert, and a new page, for the older layouts' answers.
ANSWERS = """<body><div class="set-messages"></div><script>
function sayLater(text, ms) {
  setTimeout(() => document.querySelector(".set-messages").innerText = text, ms);
}
</script></body>"""


def counting_looks(answers: PageAnswers, monkeypatch
                   ) -> tuple[list[int], list[Woken | None]]:
    """How many times the bot looked at the message box, and how each wait ended."""
    looks, ends = [0], []
    take, wait = answers._messages, answers._until_said

    def counted() -> list[str]:
        looks[0] += 1
        return take()

    def noted(seconds: float, cover: CardSlot | None) -> Woken | None:
        ends.append(wait(seconds, cover))
        return ends[-1]

    monkeypatch.setattr(answers, "_messages", counted)
    monkeypatch.setattr(answers, "_until_said", noted)
    return looks, ends


def test_the_page_s_answer_ends_the_wait_for_it_without_a_look_every_few_ms(page, pages_url,
                                                                            monkeypatch):
    page.goto(f"{pages_url}plain.html")
    page.set_content(ANSWERS)
    answers = PageAnswers(page.main_frame)
    looks, ends = counting_looks(answers, monkeypatch)

    page.evaluate("sayLater('Something else', 100); sayLater('GREAT! 1 Set Found', 400)")
    answer = answers.wait(0, 5.0)
    assert (answer.text, answer.found) == ("GREAT! 1 Set Found", 1)
    # Woken by the page, each text it showed: a look at the start and one per text, not one
    # per 5 ms of the 400 ms, and no wait left to run out. (Each wait's end is checked as a
    # set: on a slow machine a text may already be there at a look, with no wait before it.)
    assert looks[0] <= 4 and set(ends) <= {Woken.SAID}

    ends.clear()
    page.evaluate("setTimeout(() => alert('3 Sets Found'), 300)")
    answer = answers.wait(0, 5.0)
    assert answer.found == 3 and set(ends) <= {Woken.DIALOG}

    looks[0] = 0
    ends.clear()
    assert answers.wait(1, 0.3) is None  # nothing said: the wait's end
    assert looks[0] <= 2 and set(ends) <= {None}

    ends.clear()
    page.evaluate("setTimeout(() => location.href = 'plain.html?done=5', 300)")
    assert answers.wait(1, 5.0).left_page.endswith("plain.html?done=5")
    assert set(ends) <= {Woken.NAVIGATED}  # (the request, before the page it asked goes away)


def test_a_cover_over_the_last_card_ends_the_wait_for_the_answer(page, monkeypatch):
    page.set_content(TICKING)
    hands = Hands(page.main_frame, Mouse(page))
    page.mouse.click(60, 40)
    assert hands.ticks.after_click(slot(1)) is Tick.TICKED  # a page that ticks its boxes
    page.evaluate("document.querySelector('div').remove()")
    page.evaluate("""setTimeout(() => document.body.insertAdjacentHTML('beforeend',
        '<div style="position:fixed; inset:0; background:#0008">a popup</div>'), 300)""")
    looks, ends = counting_looks(hands.answers, monkeypatch)

    assert not hands.ticks.cover_seen
    assert hands._answer(0, 5.0, slot(2)) is None
    assert hands.ticks.cover_seen and ends == [Woken.COVERED]
    assert looks[0] == 2  # and what the page said meanwhile looked at once more


# Four cards far apart (farther than any stride), boxes that tick, and the page's answer an
# alert after the third click, a frame later (as a card's javascript: link runs).
FAR_APART = """<body style="margin:0"><script>
var moves = 0, clicked = 0;
document.addEventListener("mousemove", () => moves++);
function tick(n) {
  document.querySelector("[name=A" + n + "]").checked = true;
  if (++clicked == 3) requestAnimationFrame(() => alert("GREAT! 1 Set Found"));
}
</script>""" + "".join(
    f'<a href="#" onclick="tick({n}); return false" style="position:absolute; left:{x}px; '
    f'top:{y}px; width:100px; height:60px; background:#eee"></a>'
    f'<input name="A{n}" type="checkbox" style="position:absolute; top:700px; left:{20 * n}px">'
    for n, (x, y) in enumerate([(10, 10), (900, 10), (10, 600), (900, 600)], start=1)
) + "</body>"


def far_slot(position: int) -> CardSlot:
    return CardSlot(position, f"{position}.gif", f'a[onclick^="tick({position})"]')


def test_a_card_is_reached_in_one_move_however_far_and_the_mouse_moves_on_as_the_page_answers(
        page):
    page.set_viewport_size({"width": 1100, "height": 760})
    page.set_content(FAR_APART)
    hands = Hands(page.main_frame, Mouse(page))

    answer = hands.click_set([far_slot(1), far_slot(2), far_slot(3)], then=far_slot(4))
    assert answer.found == 1
    # One move a card (a flick: each move on the way costs the page a frame), and one more
    # to the next set's first card, made while the page answers. (On a loaded machine the
    # page's alert may come first: the move made while it is up never reaches the page, and
    # the next press is made where the mouse was sent; CI once counted 3.)
    assert page.evaluate("moves") in (3, 4)
    assert hands.mouse.position == (950, 630)
    assert page.evaluate("[1, 2, 3, 4].map(n => document.querySelector('[name=A' + n + ']')"
                         ".checked)") == [True, True, True, False]  # moved on to, not clicked


def test_without_a_next_card_the_mouse_stays_on_the_last_one(page):
    page.set_viewport_size({"width": 1100, "height": 760})
    page.set_content(FAR_APART)
    hands = Hands(page.main_frame, Mouse(page))

    assert hands.click_set([far_slot(2), far_slot(3), far_slot(4)]).found == 1
    assert page.evaluate("moves") == 3 and hands.mouse.position == (950, 630)
