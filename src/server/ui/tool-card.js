// @ts-check
// A tool call as a card: name, main argument, status and duration; expandable to its input and output.
// Everything here comes from the agent: it is set as textContent, never as HTML.

/** @typedef {import("../../core/contract/events.ts").BodyOf<"tool.call">} ToolCall */
/** @typedef {import("../../core/contract/events.ts").BodyOf<"tool.result">} ToolResult */
/** @typedef {Node | string | null | undefined | false} Child */

/**
 * A DOM element with properties and children (strings become text nodes; null, undefined and false are left out).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Partial<HTMLElementTagNameMap[K]>} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== undefined && c !== null && c !== false));
  return node;
}

/** "120 ms", "1.2 s", "2 m 05 s". */
export function duration(/** @type {number} */ ms) {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, "0")} s`;
}

// Where tools keep their main argument: paths, commands, searches, addresses; a sub-agent's task last.
const ARG_KEYS = ["file_path", "path", "filePath", "filepath", "command", "cmd", "pattern", "query", "url", "file", "description"];

/** The argument that says what a call is about (a path, a command, …), as one short line. */
export function mainArgument(/** @type {unknown} */ input) {
  if (input === undefined || input === null) return "";
  if (typeof input === "string") return clip(input);
  if (typeof input !== "object") return clip(String(input));
  for (const key of ARG_KEYS) {
    const value = /** @type {Record<string, unknown>} */ (input)[key];
    if (typeof value === "string" && value) return clip(value);
    if (Array.isArray(value) && value.length && value.every((v) => typeof v === "string")) return clip(value.join(" "));
  }
  const json = JSON.stringify(input);
  return json === "{}" ? "" : clip(json);
}

function clip(/** @type {string} */ text, max = 120) {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export const OUTPUT_CAP = 4000;

/**
 * A <pre> with at most `cap` characters, and a button that shows the rest.
 * @param {string} text
 * @param {string} className
 */
export function cappedPre(text, className, cap = OUTPUT_CAP) {
  const pre = el("pre", { className, tabIndex: 0, textContent: text.length > cap ? `${text.slice(0, cap)}\n…` : text });
  if (text.length <= cap) return pre;
  const more = el("button", {
    type: "button",
    className: "show-all",
    textContent: `Show all (${text.length.toLocaleString("en")} characters)`,
    onclick: () => {
      pre.textContent = text;
      more.remove();
    },
  });
  return el("div", { className: "capped" }, pre, more);
}

function pretty(/** @type {unknown} */ input) {
  if (input === undefined) return "(none)";
  if (typeof input === "string") return input;
  try {
    return JSON.stringify(input, null, 2);
  } catch {
    return String(input);
  }
}

/**
 * A card for a `tool.call`; `finish(result)` takes its `tool.result`. `children` holds a sub-agent's activity.
 * @param {{ name: string, input?: unknown, ts?: number }} call the `tool.call` (a result without its call: only a name)
 */
export function createToolCard(call) {
  const status = el("span", { className: "tool-status", textContent: "running" });
  const time = el("span", { className: "tool-time" });
  const arg = mainArgument(call.input);
  const summary = el(
    "summary",
    {},
    el("span", { className: "tool-name", textContent: call.name }),
    arg ? el("code", { className: "tool-arg", textContent: arg, title: arg }) : null,
    el("span", { className: "tool-meta" }, status, time),
  );
  const io = el("div", { className: "tool-io" }, el("h4", { textContent: "Input" }), cappedPre(pretty(call.input), "tool-input"));
  const details = el("details", {}, summary, io);
  const children = el("div", { className: "tool-children" });
  const node = el("div", { className: "tool", role: "group", ariaLabel: `Tool call: ${call.name}` }, details, children);
  node.dataset.status = "running";
  return {
    node,
    children,
    finish(/** @type {ToolResult & { ts?: number }} */ result) {
      const failed = result.isError === true;
      node.dataset.status = failed ? "failed" : "done";
      status.textContent = failed ? "failed" : "done";
      if (typeof call.ts === "number" && typeof result.ts === "number") time.textContent = duration(result.ts - call.ts);
      io.append(el("h4", { textContent: failed ? "Output (error)" : "Output" }), cappedPre(result.output || "(no output)", "tool-output"));
    },
  };
}
