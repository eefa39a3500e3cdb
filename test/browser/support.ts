/**
 * What the browser suites share: whether Chromium is here (decided once, before anything is made),
 * a Chromium launched the same way everywhere, pages at desktop and phone widths, and an axe-core
 * check of the page's current state. A suite without Chromium is one skipped test naming why.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.OD_CHROMIUM ?? "/usr/bin/chromium";

/** Why the browser suites cannot run here, or undefined when they can. */
export const chromiumMissing = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (install it, or set OD_CHROMIUM to its path)`;

/** The widths every page is checked at: a desktop and a phone. */
export const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export async function openPage(browser: Browser, url: string, width: keyof typeof WIDTHS = "desktop"): Promise<Page> {
  const page = await browser.newPage({ viewport: WIDTHS[width] });
  await page.goto(url);
  return page;
}

/** The page scrolls sideways: its document is wider than the viewport. */
export async function scrollsSideways(page: Page): Promise<boolean> {
  // Strings, not functions: they run in the page, and this project's TypeScript has no DOM types.
  return page.evaluate<boolean>("document.documentElement.scrollWidth > document.documentElement.clientWidth");
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2 A and AA rules). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated, not added as a script tag: the page's Content-Security-Policy refuses inline scripts.
  await page.evaluate(axeSource);
  const rules = JSON.stringify({ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"] } });
  const violations = await page.evaluate<AxeViolation[]>(`axe.run(document, ${rules}).then((r) => r.violations)`);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
