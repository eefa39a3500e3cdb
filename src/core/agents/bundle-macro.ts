/**
 * A bundle-time macro: a worker entry bundled on its own, as a string. `bun build --compile`
 * embeds only the entry points it is given, and a Worker needs an entry of its own; this puts the
 * plugin thread's code into the binary as text (plugin-worker-code.ts) with no change to the build
 * command. It runs once per build, in the bundler (never at run time).
 */
export function bundled(entry: string): string {
  const path = decodeURIComponent(new URL(entry, import.meta.url).pathname);
  const out = Bun.spawnSync([process.execPath, "build", path, "--target=bun", "--format=esm", "--minify"], {
    stdout: "pipe",
    stderr: "pipe",
  });
  if (out.exitCode !== 0) throw new Error(`bundling ${entry} failed: ${out.stderr.toString()}`);
  return out.stdout.toString();
}
