/**
 * `od serve` killed outright mid-run (SIGKILL: no shutdown, no run.finished) and started again on
 * the same port and OD_HOME: the page says the server is gone and stops offering Cancel; the old page
 * notices the new server refuse its token and shows the fresh-link view by itself, and the new link
 * works, with the prompt typed meanwhile restored and the dead server's run recovered as failed. At
 * the phone width, where the banner must fit too.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { startServer } from "../../src/server/serve.ts";
import { installFake, tmpdir } from "../helpers.ts";
import { registry } from "../server/support.ts";
import { freePort, spawnServer } from "./child-server.ts";
import { loaded, SCRIPT, showHistory } from "./shell-support.ts";
import { chromiumMissing, openPage, releaseBrowser, scrollsSideways, seriousViolations, takeBrowser } from "./support.ts";

if (chromiumMissing) test.skip(`web UI restart (chromium): skipped, ${chromiumMissing}`, () => {});
else describe("web UI when od serve dies mid-run (chromium)", suite);

function suite() {
  let tmp: ReturnType<typeof tmpdir>;
  let browser: Browser;
  let child: ReturnType<typeof Bun.spawn> | undefined;
  let second: ReturnType<typeof startServer> | undefined;

  beforeAll(async () => {
    tmp = tmpdir();
    browser = await takeBrowser();
  }, 30_000);

  afterAll(async () => {
    child?.kill("SIGKILL");
    if (browser) releaseBrowser();
    await second?.stop();
    await tmp?.[Symbol.asyncDispose]();
  });

  test("the banner says the server is gone; the new link gives a working page", async () => {
    const fake = installFake(tmp.path, "fake-agent", SCRIPT);
    const port = await freePort();
    const first = await spawnServer(fake.env, port);
    child = first.child;

    const page = await openPage(browser, `${first.url}?token=${first.token}`, "phone");
    await loaded(page);
    await page.fill("#cwd", tmp.path);
    await page.fill("#prompt", "hang until the server dies");
    await page.click("#run");
    await page.locator("#output", { hasText: "still working" }).waitFor();
    expect(await page.locator("#cancel").isEnabled()).toBe(true);

    child.kill("SIGKILL");
    await child.exited;
    await page.locator("#banner", { hasText: "The od server is gone" }).waitFor({ timeout: 15_000 });
    expect(await page.locator("#cancel").isDisabled()).toBe(true);
    expect(await page.locator("#run").isEnabled()).toBe(true);
    expect(await scrollsSideways(page)).toBe(false);
    if (process.env.OD_SCREENSHOTS) await page.screenshot({ path: `${process.env.OD_SCREENSHOTS}/gone-390.png`, fullPage: true });

    // A new server on the same port and home: a new token, which this page does not have.
    // What the user types meanwhile is kept across the new link.
    await page.fill("#prompt", "slow, once more");
    second = startServer({ host: "127.0.0.1", port, maxRuns: 4, registry, env: fake.env });
    expect(second.token).not.toBe(first.token);
    // The page notices by itself (before anything is pressed) that its token is no longer taken.
    await page.locator("#fresh-link h2", { hasText: "no longer valid" }).waitFor({ timeout: 15_000 });
    expect(await page.locator("#workbench").isHidden()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    if (process.env.OD_SCREENSHOTS) await page.screenshot({ path: `${process.env.OD_SCREENSHOTS}/fresh-link-390.png`, fullPage: true });

    // The link the new server printed: a working page, the dead server's run recovered as failed.
    await page.goto(`${second.url}?token=${second.token}`);
    await loaded(page);
    await showHistory(page);
    await page.locator("#runs button", { hasText: "hang until the server dies" }).locator(".badge.failed").waitFor();
    expect(await page.locator("#banner").isHidden()).toBe(true);
    expect(await page.inputValue("#prompt")).toBe("slow, once more");
    await page.close();
  }, 60_000);

  test("a server back within seconds (same token): the stream reconnects, says so, and resumes where it was", async () => {
    await second?.stop();
    second = undefined;
    const fake = installFake(tmp.path, "fake-agent", SCRIPT);
    const port = await freePort();
    const token = "fixed-token-for-the-reconnect-test";
    // The page's own timings, not the quick ones: the server is back within its 4 s before "gone", and its idle
    // poll (every 5 s) would otherwise say "Cannot reach" over the stream's "Reconnecting" this test looks for.
    const first = await spawnServer(fake.env, port, token, {});
    child = first.child;
    const page = await openPage(browser, `${first.url}?token=${token}`, "desktop");
    await loaded(page);
    await page.fill("#cwd", tmp.path);
    await page.fill("#prompt", "hang until the server restarts");
    await page.click("#run");
    await page.locator("#output", { hasText: "still working" }).waitFor();

    child.kill("SIGKILL");
    await child.exited;
    await page.locator("#banner", { hasText: "Reconnecting" }).waitFor();
    // Back on the same port and token before the page gives up: the dead server's run is failed, and the page sees it end.
    second = startServer({ host: "127.0.0.1", port, maxRuns: 4, registry, env: fake.env, token });
    await page.locator("#run-status", { hasText: "Failed" }).waitFor({ timeout: 15_000 });
    expect(await page.locator("#banner").isHidden()).toBe(true);
    expect(await page.locator("#output .prompt").count()).toBe(1);
    expect((await page.locator("#output").textContent())?.match(/still working/g)).toHaveLength(1); // nothing shown twice
    expect(await page.locator("#cancel").isDisabled()).toBe(true);
    await page.close();
  }, 60_000);
}
