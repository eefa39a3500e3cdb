import type { FileStat, Kept } from "./keep.ts";

/** A private copy of a working directory for one agent, and what that agent changed in it. */
export interface Workspace {
  dir: string;
  kind: "worktree" | "copy";
  /** The commit the worktree starts from (HEAD plus the user's uncommitted and untracked files). */
  base?: string;
  changes(): Promise<{ files: string[]; diff?: string }>;
  /**
   * Keeps what the agent changed: a worktree as the branch `branch` on top of `base`, a copy as a
   * patch at `patchPath`. `kept` is undefined when nothing changed (or a copy cannot be tracked: `note`).
   */
  keep(target: { branch: string; patchPath: string; patchFile: string }): Promise<{ files: FileStat[]; kept?: Kept; note?: string }>;
  /** Removes the workspace and git's record of it, whatever the agent made of its files. */
  dispose(): Promise<void>;
}
