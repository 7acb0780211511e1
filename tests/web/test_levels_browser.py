"""A 4-player table with 3 Automas at three levels plays a whole game of Barrage in Chromium by
the page's own buttons (issue 81): the new-game form's level and officer per Automa, Mahiri
Sekibo's tile shown to the human on the first turn of every round, Tommaso Battista's second
turn at once, and every step kept in the history."""
from __future__ import annotations

import pytest

from tests import browser

pytestmark = browser.needs_chromium
site = browser.site_fixture()
page = browser.page_fixture(width=1400, height=1000)


def test_three_levels_sekibo_and_battista_through_the_page(site, page):
    server, _ = site
    page.goto(f"{server}/barrage/")
    for company, role in (("usa", "automa"), ("germany", "automa"), ("italy", "automa"), ("france", "human")):
        page.select_option(f"select[name=role_{company}]", role)
    page.select_option("select[name=level_usa]", "easy")
    page.select_option("select[name=level_germany]", "very-hard")
    page.select_option("select[name=officer_germany]", "battista")
    page.select_option("select[name=level_italy]", "very-hard")
    page.select_option("select[name=officer_italy]", "sekibo")
    page.check("input[name=leeghwater]")
    page.fill("input[name=seed]", "5")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#now .who")
    boards = page.inner_text("#boards")
    assert "Tommaso Battista" in boards and "Mahiri Sekibo" in boards and "very hard" in boards
    pressed = sekibo_shown = 0
    extra_movers: list[tuple[str, str]] = []
    for _ in range(500):
        if page.locator(".who", has_text="Game over").count():
            break
        seq = page.evaluate("view.seq")
        if page.locator("#automa-done").count():
            extra = page.evaluate("view.decision.extra_turn")
            mover = page.evaluate("view.next_view.company")
            page.click("#automa-done")
        elif page.locator("#round-end").count():
            extra = False
            page.click("#round-end")
        else:
            extra = False
            if page.locator("#sekibo").count():
                sekibo_shown += 1
                assert "Sekibo" in page.inner_text("#sekibo")
            page.click("#pass")
        pressed += 1
        page.wait_for_function(f"view.seq === {seq + 1}")
        if extra:
            extra_movers.append((mover, page.evaluate("view.next_view ? view.next_view.company : null")))
    else:
        pytest.fail("the game did not end in 500 steps")
    assert sekibo_shown == 5, "Sekibo's tile is shown to the human once a round"
    assert extra_movers and all(a == b for a, b in extra_movers), "Battista plays again at once"
    assert page.evaluate("view.history.length") == pressed + 1, "the start, then one step a press: none lost"
