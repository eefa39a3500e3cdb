import { readdirSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { DIFF, git, MAX_DIFF_BYTES, withoutFilters } from "./git.ts";

export const MAX_FILES = 20_000;
const SKIP = new Set([".git", "node_modules"]);

/**
 * What each file under dir looks like on disk, size and modification time (bounded;
 * .git and node_modules left out): the check git's index makes. Contents are never
 * read, so a large tree costs one stat per file, not a read of every byte, at the
 * start and the end of every run. A file rewritten with the same bytes counts as changed.
 * Folders in `skip` (absolute; od's own home, whose run logs change as the run goes) are left out too.
 */
export function fingerprint(dir: string, skip: string[] = []): Map<string, string> | undefined {
  const out = new Map<string, string>();
  const skipped = new Set(skip.map((s) => relative(resolve(dir), resolve(s)).split(sep).join("/")).filter((r) => r && !r.startsWith("..")));
  const walk = (rel: string): boolean => {
    for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
      if (SKIP.has(d.name)) continue;
      const path = rel ? `${rel}/${d.name}` : d.name;
      if (skipped.has(path)) continue;
      if (d.isDirectory()) {
        if (!walk(path)) return false;
      } else if (d.isFile()) {
        if (out.size >= MAX_FILES) return false;
        try {
          const st = statSync(join(dir, path));
          out.set(path, `${st.size}:${st.mtimeMs}`);
        } catch {}
      }
    }
    return true;
  };
  try {
    return walk("") ? out : undefined;
  } catch {
    return undefined;
  }
}

/** The diff of `files` in a repository; undefined outside one, or with no git installed. The agent may have written the repository's config: no command it names runs. */
export async function gitDiff(cwd: string, files: string[]): Promise<string | undefined> {
  if (!files.length) return undefined;
  const noFilters = await withoutFilters(cwd, files);
  if (!noFilters) return undefined;
  const r = await git([...noFilters, ...DIFF, "--", ...files], cwd, { maxBytes: MAX_DIFF_BYTES });
  return r.code === 0 && r.out ? r.out : undefined;
}

/** The files whose fingerprint differs between two snapshots, sorted. */
export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f)).sort();
}
