// @ts-check
// A run's transcript: the user's prompt, the agent's text as Markdown, thinking, its plan, tool calls,
// permission requests, errors, and the result. Nothing from the agent is assigned as HTML except
// renderMarkdown's output (text-part.js). DRAW says how each event type is drawn, NOT_DRAWN which are
// not and why: test/surfaces.test.ts holds the two to the event contract.
import { createPermission } from "./permission.js";
import { renderPlan } from "./plan.js";
import { renderFinished, renderResult } from "./result.js";
import { createPlainText, createTextPart } from "./text-part.js";
import { createToolCard, el } from "./tool-card.js";

/** @typedef {import("../../core/contract/events.ts").OdEvent} OdEvent */
/** @typedef {import("../../core/contract/events.ts").EventType} EventType */
/**
 * @template {EventType} T
 * @typedef {import("../../core/contract/events.ts").EventOf<T>} EventOf
 */
/** @typedef {(id: string, decision: "allow" | "deny") => Promise<unknown>} Answer */

/**
 * The transcript as the drawing functions (DRAW) see it.
 * @typedef {object} View
 * @property {HTMLElement} root
 * @property {string} [agentName]
 * @property {Answer} answer
 * @property {ReturnType<typeof createTextParts>} texts
 * @property {Map<string, ReturnType<typeof createPlainText>>} thoughts thinking.delta id -> its plain text
 * @property {Map<string, HTMLElement>} plans parent ("" for the main agent) -> its plan's checklist
 * @property {Map<string, ReturnType<typeof createPermission>>} asks permission.request id -> its box
 * @property {(e: { parent?: string }) => HTMLElement} home where an event goes: in the tool call its sub-agent runs under, else the transcript
 * @property {(e: { id: string, parent?: string }, call: { name: string, input?: unknown, ts?: number }) => ReturnType<typeof createToolCard>} card a tool call's card, made once (from the call, or from a result that came first)
 */

/**
 * A drawing function for every event type but those NOT_DRAWN lists: a type added to the contract fails to compile until it is in one of the two.
 * @typedef {{ [T in Exclude<EventType, keyof typeof NOT_DRAWN>]: (v: View, e: EventOf<T>) => void }} Drawers
 */

const nextFrame = (/** @type {() => void} */ fn) =>
  typeof requestAnimationFrame === "function" ? requestAnimationFrame(fn) : setTimeout(fn, 16);

/**
 * Text parts by `text.delta` id, drawn at most once a frame while deltas stream (text-part.js:
 * Markdown, or plain text past a size). Text that resumes after a tool call (or anything else)
 * continues below it, in order.
 */
function createTextParts() {
  /** @type {Map<string, ReturnType<typeof createTextPart>>} */
  const parts = new Map();
  /** @type {Set<ReturnType<typeof createTextPart>>} */
  const dirty = new Set();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    for (const part of dirty) part.render();
    dirty.clear();
  };
  return {
    flush,
    add(/** @type {EventOf<"text.delta">} */ e, /** @type {HTMLElement} */ where) {
      let part = parts.get(e.id);
      if (!part || where.lastElementChild !== part.node) {
        part = createTextPart();
        parts.set(e.id, part);
        where.append(part.node);
      }
      part.add(e.text);
      dirty.add(part);
      if (!scheduled) {
        scheduled = true;
        nextFrame(flush);
      }
    },
  };
}

function alertBox(/** @type {EventOf<"error">} */ e) {
  const box = el("div", { className: "alert", role: "alert" }, el("strong", { textContent: "Error: " }), e.message ?? "");
  if (e.hint) box.append(el("p", { className: "hint", textContent: e.hint }));
  return box;
}

const quietLine = (/** @type {string} */ text) => el("p", { className: "status-line", textContent: text });

function onThinking(/** @type {View} */ v, /** @type {EventOf<"thinking.delta">} */ e) {
  let thought = v.thoughts.get(e.id);
  if (!thought) {
    // Focusable: a long one scrolls, and a keyboard must reach it too.
    const pre = el("pre", { className: "thinking-text", tabIndex: 0, role: "region", ariaLabel: "Thinking" });
    thought = createPlainText(pre);
    v.thoughts.set(e.id, thought);
    v.home(e).append(el("details", { className: "thinking" }, el("summary", { textContent: "Thinking" }), pre));
  }
  thought.append(e.text);
}

/** A plan replaces the one before it (the main agent's, or the same sub-agent's), drawn where the transcript is now. */
function onPlan(/** @type {View} */ v, /** @type {EventOf<"plan">} */ e) {
  const key = e.parent ?? "";
  v.plans.get(key)?.remove();
  const node = renderPlan(e);
  v.plans.set(key, node);
  v.home(e).append(node);
}

function onDecision(/** @type {View} */ v, /** @type {EventOf<"permission.decision">} */ e) {
  const box = v.asks.get(e.id);
  if (box) return box.decide(e);
  // A policy's allow needs no line; a deny says why the agent was stopped.
  if (e.decision === "deny") v.root.append(quietLine(`Permission denied by ${e.by}${e.reason ? `: ${e.reason}` : ""}`));
}

/**
 * How each event type is drawn, given the transcript's view (see createTranscript) and the event.
 * @type {Drawers}
 */
export const DRAW = {
  status: (v, e) => v.root.append(quietLine(`${e.label}${e.detail ? `: ${e.detail}` : ""}`)),
  "text.delta": (v, e) => v.texts.add(e, v.home(e)),
  "thinking.delta": onThinking,
  plan: onPlan,
  "tool.call": (v, e) => v.card(e, e),
  "tool.result": (v, e) => v.card(e, { name: "tool" }).finish(e),
  "permission.request": (v, e) => {
    const box = createPermission(e, { agentName: v.agentName, answer: v.answer });
    v.asks.set(e.id, box);
    v.root.append(box.node);
  },
  "permission.decision": onDecision,
  error: (v, e) => v.root.append(alertBox(e)),
  "run.result": (v, e) => {
    v.texts.flush();
    const panel = renderResult(e);
    if (panel) v.root.append(panel);
  },
  "run.finished": (v, e) => {
    v.texts.flush();
    v.root.append(renderFinished(e));
  },
};

/** The event types the transcript does not draw, and why. */
export const NOT_DRAWN = {
  "run.started": "the page's status line says it (app.js): agent, folder, mode",
  session: "the page offers to continue it once the run ends (run.finished carries it)",
  usage: "one turn's figures: the run's totals come with run.result",
  raw: "records od did not understand: kept in the run's log, never shown as the agent's words",
};

/** Draws one event, unless its type is one NOT_DRAWN lists. */
function draw(/** @type {View} */ v, /** @type {OdEvent} */ e) {
  if (!Object.hasOwn(DRAW, e.type)) return;
  const drawer = /** @type {(v: View, e: OdEvent) => void} */ (DRAW[/** @type {keyof Drawers} */ (e.type)]);
  drawer(v, e);
}

/**
 * The drawing state of one turn: `box` holds its prompt and events; a tool call's id, a text part's,
 * a permission's are a turn's own (the next turn is another run, with ids of its own).
 * @param {HTMLElement} box
 * @param {{ agentName?: string, answer: Answer }} options
 * @returns {View}
 */
function turnView(box, { agentName, answer }) {
  /** @type {Map<string, ReturnType<typeof createToolCard>>} */
  const tools = new Map(); // tool.call id -> card
  /** @type {View} */
  const view = {
    root: box,
    agentName,
    answer,
    texts: createTextParts(),
    thoughts: new Map(),
    plans: new Map(),
    asks: new Map(),
    home: (e) => (e.parent && tools.get(e.parent)?.children) || box,
    card(e, call) {
      let made = tools.get(e.id);
      if (!made) {
        made = createToolCard(call);
        tools.set(e.id, made);
        view.home(e).append(made.node);
      }
      return made;
    },
  };
  return view;
}

/**
 * root: the output element (cleared); agentName: e.g. "Pi"; answer(askId, decision) => Promise posts the user's decision.
 * A conversation is one transcript: `turn()` starts the next turn (another run) below the last.
 * @param {HTMLElement} root
 * @param {{ agentName?: string, answer: Answer }} options
 */
export function createTranscript(root, options) {
  root.replaceChildren();
  root.classList.add("transcript");
  let view = turnView(root, options);
  let lastSeq = -1;
  let turns = 1;

  return {
    prompt(/** @type {string} */ text) {
      view.root.append(
        el("div", { className: "prompt" }, el("span", { className: "who", textContent: "You" }), el("p", { textContent: text })),
      );
    },
    event(/** @type {OdEvent} */ e) {
      // A stream that reconnects may send an event again: each seq is shown once.
      if (typeof e?.seq === "number") {
        if (e.seq <= lastSeq) return;
        lastSeq = e.seq;
      }
      draw(view, e);
    },
    /** The next turn of the conversation (its own run: its events, seq from 0 again, its answers), below the last. */
    turn(/** @type {Partial<{ agentName: string, answer: Answer }>} */ next = {}) {
      view.texts.flush();
      const box = el("div", { className: "turn", role: "group", ariaLabel: `Turn ${++turns}` });
      root.append(box);
      view = turnView(box, { ...options, ...next });
      lastSeq = -1;
    },
  };
}
