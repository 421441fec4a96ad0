// The line chart's arithmetic (src/chart.js): domains, ticks, scales, picking by key and by position.
import { test } from "node:test";
import assert from "node:assert/strict";
import { extent, linePath, nearest, niceDomain, niceStep, scale, stepKey, ticks, xsOf } from "../src/chart.js";

test("an extent of equal values is widened so that one point still has an axis", () => {
  assert.deepEqual(extent([3, 1, 2]), [1, 3]);
  assert.deepEqual(extent([1500]), [1425, 1575]);
  assert.deepEqual(extent([0]), [-1, 1]);
  assert.deepEqual(extent([4], 1), [3, 5]);
  assert.deepEqual(extent([]), [0, 1]);
  assert.deepEqual(extent([NaN, undefined, 2, 5]), [2, 5]);
});

test("steps are 1, 2 or 5 times a power of ten", () => {
  const cases = [
    [100, 5, 20],
    [1000, 4, 200],
    [7, 5, 1],
    [1, 4, 0.2],
    [350, 3, 100],
    [0, 5, 1],
  ];
  for (const [span, count, step] of cases) assert.equal(niceStep(span, count), step, `${span}/${count}`);
});

test("ticks fall on round values inside the domain, whole numbers when asked", () => {
  assert.deepEqual(ticks(0, 100, 5), [0, 20, 40, 60, 80, 100]);
  assert.deepEqual(ticks(1437, 1612, 4), [1450, 1500, 1550, 1600]);
  assert.deepEqual(ticks(0, 0.6, 3), [0, 0.2, 0.4, 0.6]);
  assert.deepEqual(ticks(1, 3, 8, true), [1, 2, 3]);
  for (const v of ticks(0.3, 9.7, 7)) assert.ok(v >= 0.3 && v <= 9.7);
});

test("an automatic domain is widened to round values around the data", () => {
  assert.deepEqual(niceDomain(1437, 1612, 4), [1400, 1650]);
  assert.deepEqual(niceDomain(0, 100, 5), [0, 100]);
});

test("a scale maps the domain onto the range, a flipped one too (SVG's y grows downwards)", () => {
  const sy = scale([0, 100], [200, 0]);
  assert.equal(sy(0), 200);
  assert.equal(sy(100), 0);
  assert.equal(sy(25), 150);
  assert.equal(scale([5, 5], [0, 10])(5), 5);
});

test("the x values of several series are merged, sorted and distinct", () => {
  const series = [{ points: [{ x: 3 }, { x: 1 }] }, { points: [{ x: 2 }, { x: 3 }, { x: NaN }] }];
  assert.deepEqual(xsOf(series), [1, 2, 3]);
});

test("picking by position takes the nearest x with data", () => {
  assert.equal(nearest([1, 2, 5, 9], 3.4), 2);
  assert.equal(nearest([1, 2, 5, 9], 7.1), 9);
  assert.equal(nearest([], 3), null);
});

test("the arrow keys step through the x values and stop at the ends", () => {
  const xs = [1, 2, 5, 9];
  const cases = [
    [null, "ArrowLeft", 9],
    [null, "ArrowRight", 9],
    [5, "ArrowLeft", 2],
    [5, "ArrowRight", 9],
    [1, "ArrowLeft", 1],
    [9, "ArrowRight", 9],
    [4, "ArrowRight", 9], // from between two values: from the nearest (5)
    [5, "Home", 1],
    [2, "End", 9],
    [2, "Enter", null],
  ];
  for (const [current, key, next] of cases) assert.equal(stepKey(xs, current, key), next, `${current} ${key}`);
  assert.equal(stepKey([], 1, "ArrowLeft"), null);
});

test("a line path moves to the first point and draws to the others", () => {
  assert.equal(linePath([[0, 10], [5.25, 2]]), "M0.0 10.0 L5.3 2.0");
});
