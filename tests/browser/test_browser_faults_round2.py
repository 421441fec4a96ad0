"""More faults new users hit (issue 23 items 15-20 and the phone header, the refusal texts and the marking phase's
"Confirm each move"), each shown in the language and on the screen where it was found."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844, "touch": True}


def number(text: str) -> float:
    """A number as the page writes it, in English or French ("7.5", "7,5", "−1")."""
    return float(text.strip().replace("\u2212", "-").replace(",", ".").replace("\u00a0", ""))


def wall_game(page: Any, ui: Any) -> str:
    """A 9x9 game on one screen: Black walls column E, White column F, both pass; the marking phase."""
    gid = ui.create_game(page, size=9, opponent="local", level=None, komi="7.5")
    for row in range(1, 10):
        for col in ("E", "F"):
            point = ui.point(page, f"{col}{row}")
            point.click()
            expect(point).to_have_class(re.compile("shudan-sign_" + ("1" if col == "E" else "-1")))
    for _ in range(2):
        page.get_by_role("button", name=re.compile("^(Pass|Passer)$")).click()
    expect(page.locator(".game")).to_have_attribute("data-phase", "scoring")
    return str(gid)


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_quick_count_table_says_which_rows_make_the_total(
    new_page: Any, ui: Any, shot: Any, locale: str
) -> None:
    page = new_page(locale=locale)
    wall_game(page, ui)
    table = page.locator('table[data-method="quick-count"]')
    expect(table).to_be_visible()
    # The stones held (here the pass stones) explain the filled points: they are apart and not added.
    held = table.locator('tr[data-op="held"]')
    expect(held).not_to_have_count(0)
    expect(table.get_by_test_id("held-rows")).to_contain_text(re.compile("not added|non ajoutées"))
    for column in (1, 2):  # Black, White: the signed rows add up to the total shown
        signed = 0.0
        for row in table.locator("tr[data-op='+'], tr[data-op='-']").all():
            value = number(row.locator("td").nth(column - 1).inner_text())
            signed += value if row.get_attribute("data-op") == "+" else -value
        total = number(table.locator("tr.total td").nth(column - 1).inner_text())
        assert signed == total, (column, signed, total)
    expect(table.locator('tr[data-op="-"] th')).to_contain_text("\u2212")
    expect(page.get_by_test_id("quick-count-note")).to_contain_text(re.compile(r"\+ ou −|\+ or −"))
    shot(page, f"quick-count-{locale}")
