/**
 * The page when `od serve` goes away, in Chromium at 1280 and 390 px, the server a child process
 * killed outright (SIGKILL) and started again on the same port and OD_HOME:
 * - an idle page notices it stopped (a banner) and that it came back with a new token (the page for a
 *   fresh link, by itself); what the user had typed survives, restored once by the new link opened in
 *   another tab, and the old tab, its token taken again (the cookie the new link set), comes back as it was;
 * - back with the same token, the banner clears within a couple of seconds;
 * - a compare run's live transcripts stay when the server dies mid-run, and the page says so (no
 *   "Could not start" in their place).
 * axe-core clean in those states.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { FAKE_ACP, installFake, tmpdir } from "../helpers.ts";
import { freePort, killServer, spawnServer } from "./child-server.ts";
import { loaded, SCRIPT } from "./shell-support.ts";
import { chromiumMissing, releaseBrowser, scrollsSideways, seriousViolations, takeBrowser, WIDTHS } from "./support.ts";

const SHOTS = process.env.OD_SHOTS; // a folder: screenshots of each state, to look at

if (chromiumMissing) test.skip(`server lost (chromium): skipped, ${chromiumMissing}`, () => {});
else describe("the page when od serve goes away (chromium)", suite);

setDefaultTimeout(90_000);

function suite() {
  let tmp: ReturnType<typeof tmpdir>;
  let browser: Browser;
  let env: Record<string, string>;
  const children: Array<ReturnType<typeof Bun.spawn>> = [];

  beforeAll(async () => {
    tmp = tmpdir();
    env = installFake(tmp.path, "fake-agent", SCRIPT).env;
    installFake(tmp.path, "fake-acp", { turn: [] }, FAKE_ACP);
    browser = await takeBrowser();
  }, 30_000);

  afterEach(async () => {
    for (const child of children.splice(0)) await killServer(child);
  });

  afterAll(async () => {
    if (browser) releaseBrowser();
    await tmp?.[Symbol.asyncDispose]();
  });

  /** A server of its own (a fresh OD_HOME per test), and a page on it. */
  async function serve(width: keyof typeof WIDTHS, token = "") {
    const home = join(tmp.path, `home-${crypto.randomUUID()}`);
    const port = await freePort();
    const server = await spawnServer({ ...env, OD_HOME: home }, port, token);
    children.push(server.child);
    // A context of its own, so that a test can open a second tab that shares its storage and cookies.
    const context = await browser.newContext({ viewport: WIDTHS[width] });
    const page = await context.newPage();
    await page.goto(`${server.url}?token=${server.token}`);
    await loaded(page);
    const again = async () => {
      const next = await spawnServer({ ...env, OD_HOME: home }, port, token);
      children.push(next.child);
      return next;
    };
    return { server, page, again };
  }

  const shot = (page: Page, name: string) => SHOTS && page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  for (const width of ["desktop", "phone"] as const) {
    const px = WIDTHS[width].width;

    test(`${px} px: an idle page notices the server stop and come back with a new token; what was typed survives`, async () => {
      const { server, page, again } = await serve(width);
      await page.fill("#cwd", tmp.path);
      await page.fill("#prompt", "a prompt I typed but never ran");
      await page.selectOption("#mode", "read-only");
      await killServer(server.child);
      await page.locator("#banner", { hasText: "Cannot reach the od server" }).waitFor({ timeout: 15_000 });
      expect(await page.inputValue("#prompt")).toBe("a prompt I typed but never ran");
      expect(await scrollsSideways(page)).toBe(false);
      await shot(page, `idle-stopped-${px}`);

      // Back, with a new token: the page says so by itself, and keeps what was typed for the new link.
      const next = await again();
      await page.locator("#fresh-link h2", { hasText: "no longer valid" }).waitFor({ timeout: 15_000 });
      expect(await page.locator("#fresh-link").textContent()).toContain("What you typed is kept");
      expect(await page.locator("#banner").isHidden()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `idle-restarted-${px}`);
      // The new link opened in another tab, as a terminal opens it: the draft is back there, once.
      const other = await page.context().newPage();
      await other.goto(`${next.url}?token=${next.token}`);
      await loaded(other);
      await other.locator("#run-status", { hasText: "restored" }).waitFor();
      expect(await other.inputValue("#prompt")).toBe("a prompt I typed but never ran");
      expect(await other.inputValue("#cwd")).toBe(tmp.path);
      expect(await other.inputValue("#mode")).toBe("read-only");
      expect(await seriousViolations(other)).toEqual([]);
      await shot(other, `idle-restored-${px}`);
      // The old tab now sends the new cookie: its token is taken again, its workbench back as it was.
      await page.locator("#workbench").waitFor({ state: "visible", timeout: 15_000 });
      expect(await page.locator("#fresh-link").isHidden()).toBe(true);
      expect(await page.inputValue("#prompt")).toBe("a prompt I typed but never ran");
      expect(await page.locator("#run-status").textContent()).toContain("Connected again");
      expect(await page.locator("#run").isEnabled()).toBe(true);
      // Restored once: a reload does not bring it back again.
      await other.fill("#prompt", "");
      await other.reload();
      await loaded(other);
      expect(await other.inputValue("#prompt")).toBe("");
      await page.context().close();
    });

    test(`${px} px: the server killed mid-compare: both transcripts stay, the page says the server went away`, async () => {
      const { server, page } = await serve(width);
      await page.fill("#cwd", tmp.path);
      await page.fill("#prompt", "hang until the server dies");
      await page.click("#compare > summary");
      await page.fill("#repeat", "2");
      await page.click("#run");
      const cols = page.locator(".compare-col");
      await cols.nth(1).locator(".agent-text", { hasText: "still working" }).waitFor();
      await cols.nth(0).locator(".agent-text", { hasText: "still working" }).waitFor();
      await killServer(server.child);
      await page.locator(".compare-state", { hasText: "went away" }).waitFor({ timeout: 15_000 });
      expect((await cols.locator(".agent-text").allTextContents()).map((t) => t.trim())).toEqual(["still working…", "still working…"]);
      expect(await cols.locator(".badge").allTextContents()).toEqual(["server gone", "server gone"]);
      expect(await page.locator("#alert").isHidden()).toBe(true); // no "Could not start" over the transcripts
      expect(await page.locator("#banner").textContent()).toContain("gone");
      expect(await page.locator("#run").isEnabled()).toBe(true);
      expect(await page.getByRole("button", { name: "Cancel all" }).isHidden()).toBe(true);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `compare-lost-${px}`);
      await page.close();
    });

    test(`${px} px: back with the same token, the banner clears within seconds`, async () => {
      const { server, page, again } = await serve(width, `fixed-token-${px}`);
      await killServer(server.child);
      await page.locator("#banner", { hasText: "Cannot reach the od server" }).waitFor({ timeout: 15_000 });
      await again();
      const back = Date.now();
      await page.locator("#banner").waitFor({ state: "hidden", timeout: 5_000 });
      console.log(`${px} px: the banner cleared ${Date.now() - back} ms after the server was back`);
      expect(Date.now() - back).toBeLessThan(3_000);
      expect(await page.locator("#workbench").isVisible()).toBe(true);
      await page.close();
    });
  }
}
