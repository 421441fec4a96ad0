"""The line chart component (web/src/components/LineChart.jsx) on a page of its own, with the props the player
page does not use: a fixed y domain, several series, markers, a cursor given from outside, many points, one point
and none. The component is bundled with esbuild for the test (web/test/chart-harness.jsx)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

WEB = Path(__file__).resolve().parents[2] / "web"
BUNDLE = """
const { build } = await import("esbuild");
const out = await build({ entryPoints: ["test/chart-harness.jsx"], bundle: true, write: false, outdir: "out",
  format: "iife", jsx: "automatic", jsxImportSource: "preact", logLevel: "error" });
process.stdout.write(JSON.stringify(Object.fromEntries(out.outputFiles.map((f) => [f.path.split(".").pop(), f.text]))));
"""


@pytest.fixture(scope="module")
def bundle() -> dict[str, str]:
    node = shutil.which("node")
    if node is None or not (WEB / "node_modules" / "esbuild").exists():
        pytest.skip("node and web/node_modules (esbuild) are needed to bundle the chart")
    done = subprocess.run([node, "--input-type=module", "-e", BUNDLE], cwd=WEB, capture_output=True, text=True,
                          timeout=120, check=True)
    files: dict[str, str] = json.loads(done.stdout)
    return files


@pytest.fixture()
def chart_page(browser: Any, bundle: dict[str, str]) -> Any:
    ctx = browser.new_context(viewport={"width": 700, "height": 500})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_content('<!doctype html><html><body><div id="app"></div></body></html>')
    page.add_style_tag(content=bundle["css"])
    page.add_script_tag(content=bundle["js"])
    yield page
    ctx.close()
    assert not errors, errors


def show(page: Any, props: dict[str, Any]) -> Any:
    page.evaluate("(props) => window.showChart(props)", props)
    chart = page.get_by_test_id("line-chart")
    chart.wait_for()
    return chart


def test_a_win_rate_graph_with_markers_cursor_and_keys(chart_page: Any, shot: Any) -> None:
    page = chart_page
    black = [{"x": n, "y": 50 + 40 * ((n * 7919) % 13 - 6) / 6} for n in range(1, 51)]
    lead = [{"x": n, "y": 50 + n / 2} for n in range(1, 51)]
    chart = show(page, {
        "series": [{"label": "Black", "points": black}, {"label": "estimate", "points": lead, "className": "series-2"}],
        "yDomain": [0, 100], "xLabel": "move", "yLabel": "Black wins (%)", "xIntegers": True,
        "markers": [{"x": 12, "label": "move 12: a mistake"}, {"x": 31, "label": "move 31: a blunder"}],
        "currentX": 20, "pickable": True, "ariaLabel": "Black's chance to win after each move", "height": 260,
    })
    # The fixed domain: ticks from 0 to 100 whatever the data.
    ys = [int(t) for t in chart.locator(".y-tick text").all_text_contents()]
    assert ys[0] == 0 and ys[-1] == 100, ys
    assert chart.locator(".series").count() == 2 and chart.locator(".series-2 path.line").count() == 1
    titles = chart.locator('[data-testid="chart-marker"] title').all_text_contents()
    assert titles == ["move 12: a mistake", "move 31: a blunder"]
    # The cursor stands on the dots of move 20.
    cursor = float(chart.locator('[data-testid="chart-cursor"]').get_attribute("x1"))
    dot = chart.locator(".series-1 circle.dot").nth(19)
    assert abs(float(dot.get_attribute("cx")) - cursor) < 0.01
    assert "NaN" not in chart.evaluate("e => e.outerHTML")
    expect(chart).to_have_attribute("role", "slider")
    expect(chart).to_have_attribute("aria-valuetext", "20: Black: " + str(black[19]["y"]) + ", estimate: 60")
    shot(page, "win-rate")

    chart.focus()
    for key in ("ArrowRight", "ArrowLeft", "ArrowLeft", "Home", "End", "ArrowRight"):
        page.keyboard.press(key)
    assert page.evaluate("window.picks") == [21, 20, 19, 1, 50, 50]
    # A click picks the nearest move that has data.
    box = chart.bounding_box()
    target = chart.locator(".series-1 circle.dot").nth(30).bounding_box()
    page.mouse.click(target["x"] + target["width"] / 2 + 2, box["y"] + 20)
    assert page.evaluate("window.picks")[-1] == 31
    expect(chart).to_have_attribute("aria-valuenow", "31")


def test_an_image_chart_of_one_point_many_points_or_none(chart_page: Any) -> None:
    page = chart_page
    chart = show(page, {"series": [{"label": "rating", "points": [{"x": 1, "y": 1500}]}], "ariaLabel": "one"})
    expect(chart).to_have_attribute("role", "img")
    assert chart.get_attribute("tabindex") is None
    assert chart.locator("circle.dot").count() == 1 and "NaN" not in chart.evaluate("e => e.outerHTML")
    many = [{"x": n, "y": (n % 17) * 10} for n in range(300)]
    chart = show(page, {"series": [{"label": "many", "points": many}], "ariaLabel": "many"})
    # Past 60 points a line carries no dots; the ticks stay few and round.
    assert chart.locator("circle.dot").count() == 0
    xs = [int(t) for t in chart.locator(".x-tick text").all_text_contents()]
    assert 2 <= len(xs) <= 10 and all(x % 50 == 0 for x in xs), xs
    chart = show(page, {"series": [], "ariaLabel": "nothing", "pickable": True})
    expect(chart).to_have_attribute("role", "img")  # nothing to pick
    assert "NaN" not in chart.evaluate("e => e.outerHTML")
