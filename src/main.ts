#!/usr/bin/env bun
/**
 * od's entry. It imports nothing but the version, so `od --version` (or -v) is answered before
 * anything else is read; every other command loads the CLI (cli/dispatch.ts), which loads the one
 * command it runs. In the binary each import() is a chunk read only when reached (`--splitting`,
 * scripts/compile-flags.ts); test/startup-closure.test.ts keeps zod, citty, hono and the SDKs out of
 * this file's static imports.
 */
import { VERSION } from "./core/os/version.ts";

// A plugin's timer or promise that throws later must not take a running agent down with it:
// report it, and let the run end with its one run.finished.
for (const event of ["uncaughtException", "unhandledRejection"] as const) {
  process.on(event, (err: unknown) => {
    const e = err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`od: ${event === "uncaughtException" ? "uncaught error" : "unhandled rejection"} (a plugin?): ${e}\n`);
  });
}

const rawArgs = process.argv.slice(2);
// console.log, not process.stdout.write: the first touch of process.stdout builds Node's stream
// for it, which costs a compiled od about as much CPU as the whole start of a Bun hello-world.
// Hidden, in no --help: the sentinel od starts for itself (src/core/os/sentinel.ts, SENTINEL_COMMAND).
if (rawArgs[0] === "__reap") await import("./core/os/sentinel.ts").then((m) => m.sentinelMain(rawArgs[1]));
else if (rawArgs.length === 1 && (rawArgs[0] === "--version" || rawArgs[0] === "-v")) {
  // The version first (scripts read the first word), then where this od was installed from (read from disk).
  const { describeInstall, installLabel } = await import("./core/os/install.ts");
  console.log(`${VERSION} (${installLabel(describeInstall())})`);
} else await import("./cli/dispatch.ts").then((m) => m.dispatch(rawArgs));
