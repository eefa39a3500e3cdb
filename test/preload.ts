/**
 * Preloaded by `bun test` (bunfig.toml): what every test file shares, once the last one has run. The
 * browser suites share one Chromium (test/browser/support.ts); it is closed here, cleanly, if one was
 * launched (without importing playwright into runs that never use it).
 */
import { afterAll } from "bun:test";

afterAll(async () => {
  await (globalThis as { odCloseBrowser?: () => Promise<void> }).odCloseBrowser?.();
});
