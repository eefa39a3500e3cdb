/**
 * A bundle-time macro: one entry bundled on its own, as a string the binary embeds. `bun build
 * --compile` embeds only the entry points it is given; this puts what needs an entry of its own
 * into the binary as text with no change to the build command: the plugin thread's code (a
 * Worker's entry, for Bun: agents/plugin-worker-code.ts) and the web UI's modules with the
 * Markdown renderer they import from npm (for the browser: server/ui.ts). It runs once per build,
 * in the bundler (and once per test process), never at run time.
 */

/** `entry`, a path under src/ ("core/agents/plugin-worker.ts"), bundled and minified for `target`. */
export function bundled(entry: string, target: "bun" | "browser" = "bun"): string {
  const path = decodeURIComponent(new URL(`../../${entry}`, import.meta.url).pathname);
  const out = Bun.spawnSync([process.execPath, "build", path, `--target=${target}`, "--format=esm", "--minify"], {
    stdout: "pipe",
    stderr: "pipe",
  });
  if (out.exitCode !== 0) throw new Error(`bundling ${entry} failed: ${out.stderr.toString()}`);
  return out.stdout.toString();
}
