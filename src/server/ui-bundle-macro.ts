/**
 * A bundle-time macro: the web UI's modules (src/server/ui/*.js, and the Markdown renderer they
 * import from npm) bundled for the browser into one script, as a string the binary embeds. It
 * runs once per build, in the bundler (and once per test process), never at run time.
 */
export function uiBundle(entry: string): string {
  const path = decodeURIComponent(new URL(entry, import.meta.url).pathname);
  const out = Bun.spawnSync([process.execPath, "build", path, "--target=browser", "--format=esm", "--minify"], {
    stdout: "pipe",
    stderr: "pipe",
  });
  if (out.exitCode !== 0) throw new Error(`bundling ${entry} failed: ${out.stderr.toString()}`);
  return out.stdout.toString();
}
