/**
 * Named targets in the web UI (chromium): with a targets.json in OD_HOME the form has a "Where"
 * select listing this machine and each target; a run sent there goes through the engine (a
 * recording `ssh` on PATH) and its status line and history say where it ran.
 */

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { startServer } from "../../src/server/serve.ts";
import { installFake, tmpdir } from "../helpers.ts";
import { fakeSsh } from "../server/fake-ssh.ts";
import { registry } from "../server/support.ts";
import { loaded, SCRIPT } from "./shell-support.ts";
import { chromiumMissing, openPage, releaseBrowser, scrollsSideways, seriousViolations, takeBrowser } from "./support.ts";

if (chromiumMissing) test.skip(`named targets in the web UI (chromium): skipped, ${chromiumMissing}`, () => {});
else describe("named targets in the web UI (chromium)", suite);

setDefaultTimeout(30_000);

function suite() {
  let tmp: ReturnType<typeof tmpdir>;
  let server: ReturnType<typeof startServer>;
  let browser: Browser;
  let ssh: ReturnType<typeof fakeSsh>;

  beforeAll(async () => {
    tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", SCRIPT);
    ssh = fakeSsh(join(tmp.path, "bin"));
    mkdirSync(fake.env.OD_HOME!, { recursive: true });
    writeFileSync(join(fake.env.OD_HOME!, "targets.json"), JSON.stringify({ targets: { "build-box": { on: "ssh://me@build-1" } } }));
    server = startServer({ host: "127.0.0.1", port: 0, maxRuns: 4, registry, env: fake.env });
    browser = await takeBrowser();
  }, 30_000);

  afterAll(async () => {
    if (browser) releaseBrowser();
    await server?.stop();
    await tmp?.[Symbol.asyncDispose]();
  });

  test("the Where select lists this machine and the configured target; a run there says so", async () => {
    const page = await openPage(browser, `${server.url}?token=${server.token}`);
    await loaded(page);
    const where = page.getByLabel("Where");
    expect(await where.locator("option").allTextContents()).toEqual(["this machine", "build-box (ssh://me@build-1)"]);
    expect(await seriousViolations(page)).toEqual([]);
    await where.selectOption("build-box");
    await page.fill("#cwd", tmp.path);
    await page.fill("#prompt", "write the file");
    await page.click("#run");
    await page.locator("#run-status", { hasText: "on build-box" }).waitFor();
    await page.locator("#run-status", { hasText: "Succeeded" }).waitFor();
    expect(ssh.calls()[0]).toContain("me@build-1");
    await page.locator("#runs button", { hasText: "on build-box" }).first().waitFor();
    await page.selectOption("#target", "");
    await page.locator("#runs button", { hasText: "on build-box" }).first().click(); // a replay puts the target back
    await page.locator("#run-status", { hasText: "Succeeded" }).waitFor();
    expect(await page.inputValue("#target")).toBe("build-box");
    await page.close();
    const phone = await openPage(browser, `${server.url}?token=${server.token}`, "phone");
    await loaded(phone);
    expect(await scrollsSideways(phone)).toBe(false);
    await phone.close();
  });
}
