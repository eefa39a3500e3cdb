import { Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { bundled } from "../core/os/bundle-macro.ts" with { type: "macro" };
import { TOKEN_COOKIE } from "./security.ts";
import compareCss from "./ui/compare.css" with { type: "text" };
import indexHtml from "./ui/index.html" with { type: "text" };
import styleCss from "./ui/style.css" with { type: "text" };
import transcriptCss from "./ui/transcript.css" with { type: "text" };
import usageCss from "./ui/usage.css" with { type: "text" };

/** The page's script: its modules and their npm imports, bundled at build time. */
const appJs: string = bundled("server/ui/app.js", "browser");

/** What the server tells the page, in its meta tags (each in ms, a whole number above 0). */
export interface PageSettings {
  /** How often an idle page asks whether the server is still there (default 5000). */
  healthMs?: number;
  /** How long a run's dropped stream may stay down before the page says the server is gone (default 4000). */
  goneMs?: number;
}

const META: Record<keyof PageSettings, string> = { healthMs: "od-health-ms", goneMs: "od-gone-ms" };

/**
 * The embedded web UI. The launch URL carries the token once (`/?token=…`):
 * it becomes an HttpOnly, SameSite=Strict cookie and the address bar is cleaned.
 */
export function uiRoutes(token: string, settings: PageSettings = {}) {
  const page = pageHtml(settings);
  return new Hono()
    .use(async (c, next) => {
      await next();
      // The page shows what agents print: nothing it shows may run as script, load from elsewhere, or frame it.
      c.header(
        "Content-Security-Policy",
        "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      c.header("X-Content-Type-Options", "nosniff");
      c.header("Referrer-Policy", "no-referrer");
    })
    .get("/", (c) => {
      if (same(c.req.query("token"), token)) {
        setCookie(c, TOKEN_COOKIE, token, { httpOnly: true, sameSite: "Strict", path: "/" });
        return c.redirect("/", 303);
      }
      // Without the token the page could do nothing (every /api call is refused): say how to get in instead.
      if (!same(getCookie(c, TOKEN_COOKIE), token)) return c.html(freshLinkPage(c.req.header("host") ?? "127.0.0.1:7456"), 401);
      return c.html(page);
    })
    .get("/ui/app.js", (c) => c.body(appJs, 200, { "content-type": "text/javascript; charset=utf-8" }))
    .get("/ui/style.css", (c) =>
      c.body(`${styleCss}\n${transcriptCss}\n${compareCss}\n${usageCss}`, 200, { "content-type": "text/css; charset=utf-8" }),
    );
}

/** The page, its settings in its meta tags. */
function pageHtml(settings: PageSettings): string {
  let html = indexHtml as unknown as string; // a text import, though bun-types declares .html as a bundle
  for (const [key, name] of Object.entries(META) as Array<[keyof PageSettings, string]>) {
    const ms = settings[key];
    if (ms === undefined) continue;
    if (!Number.isInteger(ms) || ms <= 0) throw new RangeError(`${key} must be a whole number of ms above 0, not ${ms}`);
    const meta = new RegExp(`<meta name="${name}" content="\\d+">`);
    if (!meta.test(html)) throw new Error(`the page has no ${name} meta to set`);
    html = html.replace(meta, `<meta name="${name}" content="${ms}">`);
  }
  return html;
}

/** The token compared in constant time. */
function same(given: string | undefined, token: string): boolean {
  if (given === undefined || given.length !== token.length) return false;
  let diff = 0;
  for (let i = 0; i < given.length; i++) diff |= given.charCodeAt(i) ^ token.charCodeAt(i);
  return diff === 0;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The page for a visit without a valid token (a bare URL, an old link): readable without script. */
function freshLinkPage(host: string): string {
  const origin = escapeHtml(`http://${host}`);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>od: open the link od serve printed</title><link rel="stylesheet" href="/ui/style.css"></head>
<body>
<header><h1>od</h1></header>
<main class="fresh-link">
<h2>Open the link <code>od serve</code> printed</h2>
<p>This server only answers a page opened through its launch link, which carries a token made afresh each time it starts.
Without it (or with an earlier launch's), the page cannot list agents or start runs.</p>
<p>Look in the terminal where <code>od serve</code> runs for a line like <code>${origin}/?token=…</code> and open that link.
If the server is not running, start it with <code>od serve</code> (or <code>npm start</code>).</p>
<p>Lost the link? The token is saved in the file <code>server-token</code> in od's home folder (<code>$OD_HOME</code>, by default
<code>~/.open-design/server-token</code>); paste it here:</p>
<form method="get" action="/" class="token-form">
<label>Token <input name="token" type="password" autocomplete="off" required></label>
<button type="submit" class="primary">Open</button>
</form>
</main>
</body>
</html>
`;
}
