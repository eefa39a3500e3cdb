import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The prompt as a file, for CLIs that read it from one (`--prompt-file`, `--message-file`):
 * in a private folder (0700, the file 0600) outside the working directory, removed after the run.
 */
export function writePromptFile(prompt: string): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "od-prompt-"));
  const path = join(dir, "prompt.md");
  writeFileSync(path, prompt, { mode: 0o600 });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Where the prompt file would be, for `--dry-run` (nothing is written). */
export const PLANNED_PROMPT_FILE = join(tmpdir(), "od-prompt-XXXXXX", "prompt.md");
