import { Hono } from "hono";
import { setCookie } from "hono/cookie";
import { TOKEN_COOKIE } from "./security.ts";
import indexHtml from "./ui/index.html" with { type: "text" };
import styleCss from "./ui/style.css" with { type: "text" };
import transcriptCss from "./ui/transcript.css" with { type: "text" };
import { uiBundle } from "./ui-bundle-macro.ts" with { type: "macro" };

/** The page's script: its modules and their npm imports, bundled at build time. */
const appJs: string = uiBundle("./ui/app.js");

/**
 * The embedded web UI. The launch URL carries the token once (`/?token=…`):
 * it becomes an HttpOnly, SameSite=Strict cookie and the address bar is cleaned.
 */
export function uiRoutes(token: string) {
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
      if (c.req.query("token") === token) {
        setCookie(c, TOKEN_COOKIE, token, { httpOnly: true, sameSite: "Strict", path: "/" });
        return c.redirect("/", 303);
      }
      return c.html(indexHtml as unknown as string); // a text import, though bun-types declares .html as a bundle
    })
    .get("/ui/app.js", (c) => c.body(appJs, 200, { "content-type": "text/javascript; charset=utf-8" }))
    .get("/ui/style.css", (c) => c.body(`${styleCss}\n${transcriptCss}`, 200, { "content-type": "text/css; charset=utf-8" }));
}
