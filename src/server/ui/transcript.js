// A run's transcript: the user's prompt, the agent's text as Markdown, thinking, tool calls, permission
// requests, errors, and the result. Nothing from the agent is assigned as HTML except renderMarkdown's output
// (text-part.js).
import { createPermission } from "./permission.js";
import { renderFinished, renderResult } from "./result.js";
import { createPlainText, createTextPart } from "./text-part.js";
import { createToolCard, el } from "./tool-card.js";

const nextFrame = (fn) => (typeof requestAnimationFrame === "function" ? requestAnimationFrame(fn) : setTimeout(fn, 16));

/**
 * Text parts by `text.delta` id, drawn at most once a frame while deltas stream (text-part.js:
 * Markdown, or plain text past a size). Text that resumes after a tool call (or anything else)
 * continues below it, in order.
 */
function createTextParts() {
  const parts = new Map();
  const dirty = new Set();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    for (const part of dirty) part.render();
    dirty.clear();
  };
  return {
    flush,
    add(e, where) {
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

function alertBox(e) {
  const box = el("div", { className: "alert", role: "alert" }, el("strong", { textContent: "Error: " }), e.message ?? "");
  if (e.hint) box.append(el("p", { className: "hint", textContent: e.hint }));
  return box;
}

const quietLine = (text) => el("p", { className: "status-line", textContent: text });

/** root: the output element (cleared); agentName: e.g. "Pi"; answer(askId, decision) => Promise posts the user's decision. */
export function createTranscript(root, { agentName, answer }) {
  root.replaceChildren();
  root.classList.add("transcript");
  const texts = createTextParts();
  const thoughts = new Map(); // thinking.delta id -> its plain text
  const tools = new Map(); // tool.call id -> card
  const asks = new Map(); // permission.request id -> box
  let lastSeq = -1;

  /** Where an event goes: inside the tool call a sub-agent runs under, else the transcript. */
  const home = (e) => (e.parent && tools.get(e.parent)?.children) || root;

  function onThinking(e) {
    let thought = thoughts.get(e.id);
    if (!thought) {
      // Focusable: a long one scrolls, and a keyboard must reach it too.
      const pre = el("pre", { className: "thinking-text", tabIndex: 0, role: "region", ariaLabel: "Thinking" });
      thought = createPlainText(pre);
      thoughts.set(e.id, thought);
      home(e).append(el("details", { className: "thinking" }, el("summary", { textContent: "Thinking" }), pre));
    }
    thought.append(e.text);
  }

  function card(e, call = e) {
    if (!tools.has(e.id)) {
      const made = createToolCard(call);
      tools.set(e.id, made);
      home(e).append(made.node);
    }
    return tools.get(e.id);
  }

  function onDecision(e) {
    const box = asks.get(e.id);
    if (box) return box.decide(e);
    // A policy's allow needs no line; a deny says why the agent was stopped.
    if (e.decision === "deny") root.append(quietLine(`Permission denied by ${e.by}${e.reason ? `: ${e.reason}` : ""}`));
  }

  const handlers = {
    "text.delta": (e) => texts.add(e, home(e)),
    "thinking.delta": onThinking,
    "tool.call": (e) => card(e),
    "tool.result": (e) => card(e, { name: "tool" }).finish(e),
    "permission.request": (e) => {
      const box = createPermission(e, { agentName, answer });
      asks.set(e.id, box);
      root.append(box.node);
    },
    "permission.decision": onDecision,
    status: (e) => home(e).append(quietLine(`${e.label}${e.detail ? `: ${e.detail}` : ""}`)),
    error: (e) => root.append(alertBox(e)),
    "run.result": (e) => {
      texts.flush();
      const panel = renderResult(e);
      if (panel) root.append(panel);
    },
    "run.finished": (e) => {
      texts.flush();
      root.append(renderFinished(e));
    },
  };

  return {
    prompt(text) {
      root.append(el("div", { className: "prompt" }, el("span", { className: "who", textContent: "You" }), el("p", { textContent: text })));
    },
    event(e) {
      // A stream that reconnects may send an event again: each seq is shown once.
      if (typeof e?.seq === "number") {
        if (e.seq <= lastSeq) return;
        lastSeq = e.seq;
      }
      handlers[e?.type]?.(e);
    },
  };
}
