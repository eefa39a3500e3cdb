/**
 * The web UI in a real browser (Debian's chromium through playwright-core), against a real
 * server and the fake agent: start a run and watch it stream, cancel another, reload and replay.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startServer } from "../../src/server/serve.ts";
import { installFake, tmpdir } from "../helpers.ts";
import { registry } from "../server/support.ts";
import { chromiumMissing, launchBrowser } from "./support.ts";

// .ci/run installs Debian's chromium; without it this file is one skipped test that says why, and
// it starts no server and makes no temporary folder.
const missing = chromiumMissing;

if (missing) test.skip(`web UI (chromium): skipped, ${missing}`, () => {});
else describe("web UI (chromium)", suite);

function suite() {
  let tmp: ReturnType<typeof tmpdir>;
  let server: ReturnType<typeof startServer>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [
      { read: "all" },
      {
        ifStdin: "hang",
        then: [{ stdout: { t: "text", v: "still working…" } }, { hang: true }],
        else: [
          { stdout: { t: "session", v: "sess-42" } },
          { stdout: { t: "text", v: "Writing the file. " } },
          { sleep: 100 },
          { stdout: { t: "tool", id: "call-1", name: "Write" } },
          { stdout: { t: "result", id: "call-1" } },
          { stdout: { t: "text", v: "ALL DONE" } },
        ],
      },
    ]);
    server = startServer({ host: "127.0.0.1", port: 0, maxRuns: 4, registry, env: fake.env });
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.goto(`${server.url}?token=${server.token}`);
  }, 30_000); // a cold Chromium can take longer than the default 5 s to start on a busy machine

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await tmp?.[Symbol.asyncDispose]();
  });

  async function runPrompt(prompt: string) {
    await page.fill("#cwd", tmp.path);
    await page.fill("#prompt", prompt);
    await page.keyboard.press("Control+Enter");
  }

  test("a new user starts a run and sees text and a tool call stream in", async () => {
    await page.locator("#agent option").first().waitFor({ state: "attached" });
    // The fake ACP agent is not installed here: listed, but disabled with its install hint.
    expect(await page.locator("#agent option[value=fake-acp]").isDisabled()).toBe(true);
    expect(await page.locator("#agent option[value=fake-acp]").textContent()).toContain("not installed");
    expect(await page.locator("#agent").inputValue()).toBe("fake");
    await runPrompt("write the file");
    await page.locator("#output .text", { hasText: "ALL DONE" }).waitFor();
    await page.locator("#output details.tool summary", { hasText: "Write" }).waitFor();
    await page.locator("#run-status", { hasText: "succeeded" }).waitFor();
    expect(await page.locator("#session").textContent()).toBe("sess-42");
    expect(await page.locator("#continue").isEnabled()).toBe(true);
    if (process.env.OD_SCREENSHOT) await page.screenshot({ path: process.env.OD_SCREENSHOT, fullPage: true });
  });

  test("a second run is cancelled from the UI", async () => {
    await runPrompt("hang please");
    await page.locator("#output .text", { hasText: "still working" }).waitFor();
    await page.click("#cancel");
    await page.locator("#run-status", { hasText: "cancelled" }).waitFor();
  });

  test("after a reload the first run replays from the list", async () => {
    await page.reload();
    const first = page.locator("#runs button", { hasText: "write the file" });
    await first.waitFor();
    await first.click();
    await page.locator("#output .text", { hasText: "ALL DONE" }).waitFor();
    await page.locator("#run-status", { hasText: "succeeded" }).waitFor();
  });
}
