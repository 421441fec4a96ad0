// A page of its own for the line chart (tests/browser/test_browser_line_chart.py bundles it with esbuild):
// window.showChart(props) draws a LineChart; with props.pickable, the picks are kept in window.picks and move
// the cursor, as a page using the chart would.
import "../src/styles.css";
import "../src/chart.css";
import { render } from "preact";
import { useState } from "preact/hooks";
import { LineChart } from "../src/components/LineChart.jsx";

window.picks = [];

function Harness({ props }) {
  const [x, setX] = useState(props.currentX ?? null);
  const pick = (v) => {
    window.picks.push(v);
    setX(v);
  };
  return <LineChart {...props} currentX={x} onPick={props.pickable ? pick : undefined} />;
}

window.showChart = (props) => {
  const root = document.getElementById("app");
  render(null, root);
  render(<Harness props={props} />, root);
};
