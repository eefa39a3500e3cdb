import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { Adapter } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import type { OdEventBody } from "../contract/events.ts";
import { inGitMetadata, inside } from "../os/cwd-paths.ts";
import type { Skill } from "./catalog.ts";

/** Where prompt-injected skills put their assets, inside the run's working directory. */
export const ASSET_ROOT = ".od-skills";

export interface AppliedSkills {
  prompt: string;
  /** Status events that say where each skill went. */
  notes: OdEventBody[];
  /**
   * Removes every file and folder the skills added, as they were written; the
   * user's own files were never touched. Returns the files (relative to cwd)
   * the agent changed meanwhile, which are its work and stay.
   */
  undo(): string[];
}

/**
 * Gives skills to an agent the way it understands best (its declared strategy):
 * native (copied where the agent loads skills itself), file (an instruction file
 * the agent reads on its own), or prompt (the text composed into the prompt).
 * Nothing that already exists is overwritten: a skill whose place is taken falls
 * back to the prompt. So does one whose place a link in the folder leads out of it
 * (or into its `.git`): od writes with the user's authority, not the agent's, and the
 * folder is often someone else's repository.
 */
export async function applySkills(
  skills: Skill[],
  adapter: Adapter,
  cwd: string,
  prompt: string,
  opts: { dryRun?: boolean } = {},
): Promise<AppliedSkills> {
  const placed = new Placed(cwd, opts.dryRun ?? false);
  const notes: OdEventBody[] = [];
  const inPrompt: Skill[] = [];
  const named: string[] = [];
  const strategy = adapter.capabilities.skills;
  const target = adapter.skillTarget;
  try {
    for (const skill of skills) {
      const name = skill.meta.name;
      if (strategy === "native" && target) {
        const dir = join(cwd, target, name);
        const taken = leadsOut(cwd, dir) ? LEADS_OUT : existsSync(dir) ? "already exists and is left alone" : undefined;
        if (!taken) {
          for (const [rel, read] of Object.entries(skill.files)) placed.write(join(dir, rel), await read());
          notes.push({ type: "status", label: "skill", detail: `${name}: placed in ${relative(cwd, dir)} for ${adapter.name} to load` });
          named.push(`"${name}" (${relative(cwd, dir)})`);
          continue;
        }
        notes.push(inThePrompt(name, relative(cwd, dir), taken));
      } else if (strategy === "file" && target) {
        const file = join(cwd, target.replaceAll("{name}", name));
        const taken = leadsOut(cwd, file) ? LEADS_OUT : existsSync(file) || placed.has(file) ? "is taken and left alone" : undefined;
        if (!taken) {
          // A Cursor rule (.mdc) needs its own front-matter to apply without being asked for.
          const header = file.endsWith(".mdc")
            ? `---\ndescription: ${JSON.stringify(skill.meta.description)}\nalwaysApply: true\n---\n\n`
            : "";
          placed.write(file, new TextEncoder().encode(`${header}${instructions(skill, await references(skill))}\n`));
          notes.push({
            type: "status",
            label: "skill",
            detail: `${name}: written to ${relative(cwd, file)}, which ${adapter.name} reads on its own`,
          });
          continue;
        }
        notes.push(inThePrompt(name, relative(cwd, file), taken));
      }
      inPrompt.push(skill);
    }
    const blocks: string[] = [];
    for (const skill of inPrompt) {
      const assetDir = join(cwd, ASSET_ROOT, skill.meta.name);
      let assets = Object.entries(skill.files).filter(([rel]) => rel.startsWith("assets/"));
      if (assets.length && leadsOut(cwd, assetDir)) {
        assets = [];
        notes.push({ type: "status", label: "skill", detail: `${skill.meta.name}: ${ASSET_ROOT} ${LEADS_OUT}: its assets are not placed` });
      }
      for (const [rel, read] of assets) placed.write(join(assetDir, rel.slice("assets/".length)), await read());
      const where = assets.length ? `\n\nThis skill's assets are in \`${relative(cwd, assetDir)}/\`.` : "";
      blocks.push(`${instructions(skill, await references(skill))}${where}`);
    }
    const parts: string[] = [];
    if (named.length) parts.push(`Use the skill${named.length > 1 ? "s" : ""} ${named.join(", ")} for this task.`);
    if (blocks.length) parts.push(`Follow these skill instructions for this task.\n\n${blocks.join("\n\n")}`);
    return { prompt: parts.length ? `${parts.join("\n\n")}\n\n---\n\n${prompt}` : prompt, notes, undo: () => placed.undo() };
  } catch (err) {
    placed.undo();
    throw err;
  }
}

/** A place a link in the folder leads out of it, or into its .git (see applySkills). */
const leadsOut = (cwd: string, path: string): boolean => !inside(cwd, path) || inGitMetadata(cwd, path);

const LEADS_OUT = "leads out of the folder (a link) and is not written";

const inThePrompt = (name: string, place: string, why: string): OdEventBody => ({
  type: "status",
  label: "skill",
  detail: `${name}: ${place} ${why}; the skill goes into the prompt`,
});

function instructions(skill: Skill, refs: Array<[string, string]>): string {
  const refText = refs.map(([rel, text]) => `\n\n<reference path="${rel}">\n${text.trim()}\n</reference>`).join("");
  return `<skill name="${skill.meta.name}">\n${skill.body}${refText}\n</skill>`;
}

/** Only the references/*.md files the body mentions (by path or file name). */
async function references(skill: Skill): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const [rel, read] of Object.entries(skill.files)) {
    if (!/^references\/.+\.md$/.test(rel)) continue;
    if (!skill.body.includes(rel) && !skill.body.includes(rel.split("/").pop()!)) continue;
    out.push([rel, new TextDecoder().decode(await read())]);
  }
  return out;
}

/** Files and folders written for a run, so exactly those (and nothing of the user's) are removed. */
class Placed {
  /** Each file written, with its bytes: undo removes only what is still as written. */
  private readonly files = new Map<string, Uint8Array>();
  private readonly dirs: string[] = [];
  /** With dryRun nothing is written: `od run --dry-run` shows the plan only. */
  constructor(
    private readonly cwd: string,
    private readonly dryRun: boolean,
  ) {}

  has(path: string): boolean {
    return this.files.has(path);
  }

  write(path: string, bytes: Uint8Array): void {
    // Never overwritten, not even with the same bytes: another run in this folder may be using it.
    if (existsSync(path))
      throw new OdError(
        "INVALID_REQUEST",
        `A skill's file is already at ${path}`,
        `Another run in this folder may be using it; if a run that was killed left it, remove ${relative(this.cwd, dirname(path))}.`,
      );
    if (this.dryRun) {
      this.files.set(path, bytes);
      return;
    }
    const missing: string[] = [];
    for (let d = dirname(path); d.startsWith(this.cwd) && !existsSync(d); d = dirname(d)) missing.unshift(d);
    for (const d of missing) {
      mkdirSync(d);
      this.dirs.push(d);
    }
    writeFileSync(path, bytes, { flag: "wx" });
    this.files.set(path, bytes);
  }

  undo(): string[] {
    const kept: string[] = [];
    if (this.dryRun) return kept;
    for (const [path, bytes] of this.files) {
      try {
        if (unmoved(this.cwd, path) && sameBytes(path, bytes)) rmSync(path);
        else if (existsSync(path)) kept.push(relative(this.cwd, path));
      } catch {
        kept.push(relative(this.cwd, path)); // cannot be removed (permissions, a folder in its place): left, and said
      }
    }
    this.files.clear();
    // Deepest first, and only when empty: whatever the agent itself wrote there stays.
    for (const d of this.dirs.splice(0).reverse()) {
      try {
        if (unmoved(this.cwd, d) && readdirSync(d).length === 0) rmdirSync(d);
      } catch {}
    }
    return kept;
  }
}

/**
 * `path` is still where od put it: no link on its way from cwd (nor in its place). The agent may
 * have swapped a folder od made for a link out of cwd meanwhile; removing through it would delete
 * whatever is there (a byte-identical copy of the skill, the user's own source of it).
 */
function unmoved(cwd: string, path: string): boolean {
  try {
    return !lstatSync(path).isSymbolicLink() && realpathSync(path) === join(realpathSync(cwd), relative(cwd, path));
  } catch {
    return false;
  }
}

function sameBytes(path: string, bytes: Uint8Array): boolean {
  try {
    return Buffer.compare(readFileSync(path), bytes) === 0;
  } catch {
    return false;
  }
}
