/**
 * How od runs git: never through a shell, with none of the commands a
 * repository's config can name for what od asks (an agent may have written
 * that config), and a git that cannot start (none installed, a folder that is
 * gone) as a failure like any other.
 */

/** A diff as git itself writes it: no colour, no external diff tool, no textconv. */
export const DIFF = ["diff", "--no-color", "--no-ext-diff", "--no-textconv"];

/** A diff longer than this (a rewritten lockfile, a data file) is cut, and says so. */
export const MAX_DIFF_BYTES = 1024 * 1024;

export interface GitResult {
  code: number;
  out: string;
  err: string;
}

/** git's exit code and output; with `maxBytes`, output beyond it is cut (git is stopped) and marked; `env` is added to od's own. */
export async function git(
  args: string[],
  cwd: string,
  opts: { stdin?: string; maxBytes?: number; env?: Record<string, string> } = {},
): Promise<GitResult> {
  let p: Bun.Subprocess<"ignore" | Blob, "pipe", "pipe">;
  try {
    p = Bun.spawn(["git", "-c", "core.fsmonitor=false", ...args], {
      cwd,
      env: opts.env ? { ...process.env, ...opts.env } : undefined,
      stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (err) {
    return { code: -1, out: "", err: String((err as Error).message) };
  }
  const [out, err] = await Promise.all([bounded(p, opts.maxBytes ?? Number.POSITIVE_INFINITY), new Response(p.stderr).text(), p.exited]);
  return out.cut
    ? { code: 0, out: `${out.text}\n[od: the output is longer than ${opts.maxBytes} bytes and was cut here]\n`, err }
    : { code: p.exitCode ?? 1, out: out.text, err };
}

async function bounded(p: Bun.Subprocess<"ignore" | Blob, "pipe", "pipe">, maxBytes: number): Promise<{ text: string; cut: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of p.stdout) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > maxBytes) {
      p.kill();
      return { text: Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8"), cut: true };
    }
  }
  return { text: Buffer.concat(chunks).toString("utf8"), cut: false };
}

/**
 * `-c` options that switch off the filter drivers .gitattributes names for
 * `files`: git runs a filter's clean command when it diffs a changed file, and
 * an agent may have written both the attributes and the config naming that
 * command. Undefined when a name cannot be switched off safely (it holds "=").
 */
export async function withoutFilters(cwd: string, files: string[]): Promise<string[] | undefined> {
  const fields = (await git(["check-attr", "-z", "filter", "--", ...files], cwd)).out.split("\0");
  const names = new Set<string>();
  for (let i = 2; i < fields.length; i += 3) {
    const value = fields[i]!;
    if (value && value !== "unspecified" && value !== "unset" && value !== "set") names.add(value);
  }
  if ([...names].some((n) => /[=\n]/.test(n))) return undefined;
  return [...names].flatMap((n) => ["-c", `filter.${n}.clean=`, "-c", `filter.${n}.process=`, "-c", `filter.${n}.required=false`]);
}
