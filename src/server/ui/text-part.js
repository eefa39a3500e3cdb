// @ts-check
// An agent's text in the transcript, drawn so that any amount of it opens at once. Measured in
// Chromium: Markdown parsing is cheap (3 MiB in about 65 ms), laying the text out is not: about
// 1.5 s a MiB, spaces or not (one 3 MiB line: 5 s, and again each time the text changed while it
// streamed). So a part is Markdown while it is short, and past PLAIN_AFTER characters plain text
// in blocks the browser lays out only while they are on screen (content-visibility), appended to
// as the text streams: 3 MiB then opens in about 0.3 s.
import { renderMarkdown } from "./markdown.js";
import { el } from "./tool-card.js";

/** How long a text part may grow (characters) and still be drawn as Markdown. */
export const PLAIN_AFTER = 128 * 1024;
/** The size of one block of plain text (characters): what the browser lays out at a time. */
const BLOCK = 16 * 1024;

const kib = (/** @type {number} */ n) => `${Math.round(n / 1024).toLocaleString("en")} KB`;

/**
 * Plain text appended to `node` in blocks of about BLOCK characters, each laid out only when on
 * screen. A block ends at a line break when one is near, so lines are not cut where blocks meet.
 */
export function createPlainText(/** @type {HTMLElement} */ node) {
  /** @type {HTMLElement | undefined} */
  let block;
  let size = 0;
  return {
    append(/** @type {string} */ text) {
      for (let at = 0; at < text.length; ) {
        if (!block || size >= BLOCK) {
          if (block && !node.style.getPropertyValue("--block-height")) measure(node, block);
          block = el("span", { className: "plain-block" });
          node.append(block);
          size = 0;
        }
        const n = cut(text, at, BLOCK - size);
        block.append(text.slice(at, at + n));
        // Cut before the end of the text: this block is full (or ends at a line break near its end).
        size = at + n < text.length ? BLOCK : size + n;
        at += n;
      }
    },
  };
}

/** How much of `text` from `at` fits in `room`: up to a line break in its last quarter, never half a surrogate pair. */
function cut(/** @type {string} */ text, /** @type {number} */ at, /** @type {number} */ room) {
  if (text.length - at <= room) return text.length - at;
  const nl = text.lastIndexOf("\n", at + room - 1);
  if (nl >= at + room * 0.75) return nl + 1 - at;
  const high = text.charCodeAt(at + room - 1);
  return high >= 0xd800 && high <= 0xdbff ? room - 1 : room;
}

/**
 * The first full block's height, once drawn and whenever the width changes it, is the estimate for
 * blocks not drawn yet: the scrollbar, and a jump to the end, stay close to true.
 */
function measure(/** @type {HTMLElement} */ node, /** @type {HTMLElement} */ block) {
  node.style.setProperty("--block-height", "40rem");
  new ResizeObserver(([entry]) => {
    if (!entry) return;
    const height = entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height;
    if (height > 0) node.style.setProperty("--block-height", `${Math.ceil(height)}px`);
  }).observe(block);
}

/**
 * What a plain part says first: why it is plain, and a button that copies the whole text as it is
 * (a selection across blocks would gain a line break where two blocks meet).
 */
function plainNote(/** @type {() => string} */ text) {
  const copy = el("button", { type: "button", className: "plain-copy", textContent: "Copy the whole answer" });
  copy.onclick = () =>
    navigator.clipboard.writeText(text()).then(
      () => (copy.textContent = "Copied"),
      () => (copy.textContent = "Copy failed: select the text instead"),
    );
  return el("p", { className: "plain-note" }, `Shown as plain text: this answer is over ${kib(PLAIN_AFTER)}. `, copy);
}

/** A text part: `add` text as it streams, `render` at most once a frame. */
export function createTextPart() {
  const node = el("div", { className: "agent-text md" });
  let text = "";
  /** @type {ReturnType<typeof createPlainText> | undefined} */
  let plain; // the plain view, once the part has grown past PLAIN_AFTER
  let shown = 0; // how much of the text the plain view holds
  return {
    node,
    add(/** @type {string} */ s) {
      text += s;
    },
    render() {
      if (!plain && text.length <= PLAIN_AFTER) {
        node.innerHTML = renderMarkdown(text);
        return;
      }
      if (!plain) {
        node.className = "agent-text plain";
        const body = el("div", { className: "plain-body" });
        node.replaceChildren(
          plainNote(() => text),
          body,
        );
        plain = createPlainText(body);
      }
      plain.append(text.slice(shown));
      shown = text.length;
    },
  };
}
