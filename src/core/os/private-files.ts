import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";

/**
 * Files a run hands its CLI by path: the prompt for CLIs that read it from a file (`--prompt-file`,
 * `--message-file`), config a CLI reads per run (Claude's `--mcp-config`, Gemini's settings). Each
 * lives in a private folder of its own, outside the working directory, chosen when the run is
 * planned (the argv names it, and `--dry-run` shows it); nothing is written until the run starts.
 */
export function plannedPrivateDir(kind: "prompt" | "files"): string {
  return join(tmpdir(), `od-${kind}-${crypto.randomUUID()}`);
}

export function plannedPromptFile(): string {
  return join(plannedPrivateDir("prompt"), "prompt.md");
}

/**
 * Writes `files` (plain names: no folder, no "..") in the planned folder: it is made here (0700; it
 * must not exist yet, so nobody else's folder is used), each file 0600. `remove` deletes the folder,
 * after the run.
 */
export function writePrivateFiles(dir: string, files: Record<string, string>): { remove(): void } {
  const remove = () => rmSync(dir, { recursive: true, force: true });
  for (const name of Object.keys(files))
    if (basename(name) !== name || name === "." || name === "..") throw new Error(`not a plain file name: ${name}`);
  mkdirSync(dir, { mode: 0o700 });
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content, { mode: 0o600, flag: "wx" });
  } catch (err) {
    remove(); // a full disk leaves no half-written folder behind
    throw err;
  }
  return { remove };
}

/** Writes the prompt at its planned place (see writePrivateFiles). */
export function writePromptFile(path: string, prompt: string): { path: string; remove(): void } {
  return { path, ...writePrivateFiles(dirname(path), { [basename(path)]: prompt }) };
}
