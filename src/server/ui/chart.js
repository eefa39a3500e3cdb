// @ts-check
// Small SVG charts, drawn by hand (no chart library): stacked bars and a line, with a y axis of round
// numbers, sparse x labels, a tooltip per mark (its <title>), and one aria-label that says what the
// picture shows (role="img"). Sizes are real pixels: the caller gives the width it has and draws again
// when it changes, so the text stays readable on a phone. Colours come from CSS classes (s0…s7).

const NS = "http://www.w3.org/2000/svg";
const PAD = { top: 10, right: 8, bottom: 24, left: 46 };

/**
 * An SVG element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string | number | undefined>} [attrs]
 * @param {...(Node | string | undefined | false)} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const node = /** @type {SVGElement} */ (document.createElementNS(NS, tag));
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) node.setAttribute(k, String(v));
  for (const c of children) if (c !== undefined && c !== false) node.append(c);
  return node;
}

/** A tooltip: the mark's <title>, which browsers show on hover. */
const tip = (/** @type {string} */ text) => svg("title", {}, text);

/**
 * Round ticks from 0 to at least `max`: steps of 1, 2 or 5 times a power of ten, about `count` of
 * them, none smaller than `minStep` (1 for what is counted whole, as tokens).
 * @returns {number[]}
 */
export function niceTicks(/** @type {number} */ max, count = 4, minStep = 0) {
  if (!(max > 0)) return [0, Math.max(1, minStep)];
  const raw = Math.max(max / count, minStep);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  // Rounded to the step's own precision: 0.1 * 3 is 0.30000000000000004.
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  return Array.from({ length: Math.ceil(max / step - 1e-9) + 1 }, (_, i) => Number((i * step).toFixed(digits)));
}

/**
 * @typedef {object} Frame
 * @property {number} width
 * @property {number} height
 * @property {number[]} ticks the y axis's values, 0 first
 * @property {(v: number) => string} format how a y value is written
 * @property {string[]} labels one per column (x), some of them shown
 * @property {string} ariaLabel what the picture says, for those who do not see it
 */

/** The chart's frame: its SVG, the y axis with grid lines, the x labels, and where its columns go. */
function frame(/** @type {Frame} */ f) {
  const plot = {
    x: PAD.left,
    y: PAD.top,
    w: Math.max(10, f.width - PAD.left - PAD.right),
    h: Math.max(10, f.height - PAD.top - PAD.bottom),
  };
  const top = f.ticks[f.ticks.length - 1] || 1;
  const y = (/** @type {number} */ v) => plot.y + plot.h - (v / top) * plot.h;
  const n = Math.max(1, f.labels.length);
  const slot = plot.w / n;
  const root = svg("svg", {
    viewBox: `0 0 ${f.width} ${f.height}`,
    width: f.width,
    height: f.height,
    role: "img",
    "aria-label": f.ariaLabel,
    class: "chart",
  });
  const axis = svg("g", { class: "axis", "aria-hidden": "true" });
  for (const t of f.ticks) {
    axis.append(svg("line", { x1: plot.x, x2: plot.x + plot.w, y1: y(t), y2: y(t), class: t === 0 ? "base" : "grid" }));
    axis.append(svg("text", { x: plot.x - 6, y: y(t), dy: "0.32em", "text-anchor": "end" }, f.format(t)));
  }
  // About one label per 56 px, counted from the right: the latest column is always named.
  const every = Math.max(1, Math.ceil(56 / slot));
  f.labels.forEach((label, i) => {
    if ((n - 1 - i) % every === 0 && label)
      axis.append(svg("text", { x: plot.x + slot * (i + 0.5), y: plot.y + plot.h + 16, "text-anchor": "middle" }, label));
  });
  root.append(axis);
  return { root, plot, y, slot };
}

/**
 * @typedef {object} Part one segment of a bar
 * @property {number} series its colour (class s<series % 8>)
 * @property {number} value
 * @property {string} title its tooltip
 * @property {string} [className] more classes (e.g. `hollow`)
 */

/**
 * Bars, one per column, each a stack of parts (the first at the bottom); a column without parts is a gap.
 * @param {Omit<Frame, "ticks"> & { columns: Part[][], ticks?: (max: number) => number[] }} opts
 */
export function stackedBars(opts) {
  const max = Math.max(0, ...opts.columns.map((parts) => parts.reduce((n, p) => n + p.value, 0)));
  const ticks = (opts.ticks ?? niceTicks)(max);
  const { root, plot, y, slot } = frame({ ...opts, ticks });
  const width = Math.max(1, Math.min(slot * 0.72, 48));
  const bars = svg("g", { class: "marks" });
  opts.columns.forEach((parts, i) => {
    let base = 0;
    const x = plot.x + slot * i + (slot - width) / 2;
    for (const p of parts) {
      if (!(p.value > 0)) continue;
      const h = Math.max(1, y(base) - y(base + p.value));
      const cls = `s${p.series % 8}${p.className ? ` ${p.className}` : ""}`;
      bars.append(svg("rect", { x, y: y(base) - h, width, height: h, class: cls }, tip(p.title)));
      base += p.value;
    }
  });
  root.append(bars);
  return root;
}

/**
 * A line through one value per column, a dot on each (its tooltip on the dot).
 * @param {Omit<Frame, "ticks"> & { points: Array<{ value: number, title: string }> }} opts
 */
export function lineChart(opts) {
  const ticks = niceTicks(Math.max(0, ...opts.points.map((p) => p.value)));
  const { root, plot, y, slot } = frame({ ...opts, ticks });
  const at = opts.points.map((p, i) => /** @type {[number, number]} */ ([plot.x + slot * (i + 0.5), y(p.value)]));
  const marks = svg("g", { class: "marks" });
  marks.append(svg("polyline", { points: at.map(([x, v]) => `${x.toFixed(1)},${v.toFixed(1)}`).join(" "), class: "line" }));
  opts.points.forEach((p, i) => {
    const [cx, cy] = /** @type {[number, number]} */ (at[i]);
    marks.append(svg("circle", { cx, cy, r: p.value > 0 ? 3.5 : 2, class: p.value > 0 ? "dot" : "dot zero" }, tip(p.title)));
  });
  root.append(marks);
  return root;
}
