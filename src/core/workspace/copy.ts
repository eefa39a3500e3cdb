import { cpSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openGit } from "./git.ts";
import { keepAsPatch, stage, trackCopy } from "./keep.ts";
import type { Workspace } from "./workspace.ts";

/**
 * A plain copy of `cwd` at `<root>/work`, for a folder outside git: tracked by a private repository
 * of od's own in `<root>/private.git` (every file, ignored ones too), so the agent's result can be kept as a
 * patch; without git, only the names of the files it changed. `released` forgets the copy's lease.
 */
export async function copyWorkspace(cwd: string, root: string, released: () => void): Promise<Workspace> {
  const dir = join(root, "work");
  // A link is copied as it is: a relative one (`link -> real`) then leads inside the copy, never back to the user's folder.
  try {
    cpSync(cwd, dir, { recursive: true, verbatimSymlinks: true });
  } catch (err) {
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    released();
    throw err;
  }
  const before = fingerprint(dir);
  const gitDir = join(root, "private.git");
  const index = join(root, "index");
  const tracked = await trackCopy(gitDir, dir, index).catch((err: Error) => new Error(`its result was not kept: ${err.message}`));
  return {
    dir,
    kind: "copy",
    async keep({ patchPath, patchFile }) {
      if (tracked instanceof Error)
        return { files: changed(before, fingerprint(dir)).map((path) => ({ path, added: 0, removed: 0 })), note: tracked.message };
      // The private repository's config read again, after the agent.
      const git = await openGit({ gitDir, workTree: dir });
      const files = await stage(git, tracked.base, index, true);
      if (files.length) await keepAsPatch(git, tracked.base, index, patchPath);
      return { files, kept: files.length ? { kind: "patch", file: patchFile } : undefined };
    },
    async changes() {
      return { files: changed(before, fingerprint(dir)) };
    },
    async dispose() {
      rmSync(root, { recursive: true, force: true, maxRetries: 3 });
      released();
    },
  };
}

const changed = (before: Map<string, string>, after: Map<string, string>) =>
  [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f)).sort();

/** Every file under dir with a content hash, and every link with its target: a link is never followed (into the copy or out of it). */
function fingerprint(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const name = rel ? `${rel}/${d.name}` : d.name;
      try {
        if (d.isDirectory()) walk(name);
        else if (d.isSymbolicLink()) out.set(name, `link:${readlinkSync(join(dir, name))}`);
        else if (d.isFile()) out.set(name, Bun.hash(readFileSync(join(dir, name))).toString(16));
      } catch {}
    }
  };
  walk("");
  return out;
}
