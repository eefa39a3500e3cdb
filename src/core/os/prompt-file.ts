import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * Where the prompt goes for CLIs that read it from a file (`--prompt-file`, `--message-file`):
 * a private folder of its own, outside the working directory. Chosen when the run is planned
 * (the argv names it, and `--dry-run` shows it); nothing is written until the run starts.
 */
export function plannedPromptFile(): string {
  return join(tmpdir(), `od-prompt-${crypto.randomUUID()}`, "prompt.md");
}

/**
 * Writes the prompt at its planned place: the folder is made here (0700; it must not exist yet,
 * so nobody else's folder is used), the file 0600. `remove` deletes the folder, after the run.
 */
export function writePromptFile(path: string, prompt: string): { path: string; remove(): void } {
  const dir = dirname(path);
  const remove = () => rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { mode: 0o700 });
  try {
    writeFileSync(path, prompt, { mode: 0o600, flag: "wx" });
  } catch (err) {
    remove(); // a full disk leaves no empty folder behind
    throw err;
  }
  return { path, remove };
}
