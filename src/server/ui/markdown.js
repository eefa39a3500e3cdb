// @ts-check
// An agent's text as Markdown. Its output is untrusted: raw HTML is escaped (html: false), and
// markdown-it refuses javascript:, vbscript:, file: and data: (except images) link targets.
import MarkdownIt from "markdown-it";

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

// Links open in a new tab without handing it this page.
const defaultLink = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]?.attrSet("target", "_blank");
  tokens[idx]?.attrSet("rel", "noopener noreferrer");
  return defaultLink(tokens, idx, options, env, self);
};

/** The HTML for an agent's Markdown text (safe to assign to innerHTML). */
export function renderMarkdown(/** @type {string} */ text) {
  return md.render(text);
}
