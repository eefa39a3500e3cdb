/**
 * What the server tells the web UI's page in its meta tags: how often an idle page checks that the
 * server is still there (od-health-ms, read by src/server/ui/health.js) and how long a run's dropped
 * stream may stay down before the page says the server is gone (od-gone-ms, stream.js). 5 s and 4 s
 * unless the server is told otherwise (the browser suites' servers say less, so that their tests do not
 * wait that long); a value that is no whole number of ms above 0 stops the server from starting, not the page.
 */
import { describe, expect, test } from "bun:test";
import { uiRoutes } from "../../src/server/ui.ts";
import { TOKEN } from "./support.ts";

const meta = /<meta name="(od-health-ms|od-gone-ms)" content="([^"]*)">/g;
const settingsOf = (html: string) => Object.fromEntries([...html.matchAll(meta)].map((m) => [m[1], m[2]]));

async function page(settings?: Parameters<typeof uiRoutes>[1]) {
  const res = await uiRoutes(TOKEN, settings).request("/", { headers: { cookie: `od_token=${TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

describe("the page's settings", () => {
  test("by default an idle page checks on the server every 5 s, and a stream down 4 s is a server gone; once each", async () => {
    const html = await page();
    expect([...html.matchAll(meta)]).toHaveLength(2);
    expect(settingsOf(html)).toEqual({ "od-health-ms": "5000", "od-gone-ms": "4000" });
    expect(await page({})).toBe(html);
  });

  test("the server may tell it others, each on its own; the rest of the page is the same", async () => {
    expect(settingsOf(await page({ healthMs: 250 }))).toEqual({ "od-health-ms": "250", "od-gone-ms": "4000" });
    expect(settingsOf(await page({ goneMs: 1000 }))).toEqual({ "od-health-ms": "5000", "od-gone-ms": "1000" });
    const html = await page({ healthMs: 250, goneMs: 1000 });
    expect(settingsOf(html)).toEqual({ "od-health-ms": "250", "od-gone-ms": "1000" });
    expect(html.replace(meta, "")).toBe((await page()).replace(meta, ""));
  });

  test("a value that is no whole number of ms above 0 is refused when the routes are made", () => {
    for (const ms of [0, -1, 1.5, Number.NaN]) {
      expect(() => uiRoutes(TOKEN, { healthMs: ms })).toThrow(/healthMs/);
      expect(() => uiRoutes(TOKEN, { goneMs: ms })).toThrow(/goneMs/);
    }
  });
});
