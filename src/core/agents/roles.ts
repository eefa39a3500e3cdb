import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { Adapter } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import { inGitMetadata, inside } from "../os/cwd-paths.ts";

export interface Role {
  name: string;
  description?: string;
  prompt: string;
}

const NAME = /^[a-z0-9][a-z0-9-]*$/;

/** Where an agent keeps a role's definition: its own file format, or a section of the instruction file it reads. */
export function roleTarget(adapter: Adapter): string {
  return adapter.roleTarget ?? "AGENTS.md";
}

function roleFile(adapter: Adapter, cwd: string, name: string): string {
  return join(cwd, roleTarget(adapter).replaceAll("{name}", name));
}

const sectionTitle = (name: string) => `## Role: ${name}`;

/**
 * `od init`: writes a role in the agent's native form — its own file for agents
 * with one (`.claude/agents/<role>.md`, `.cursor/rules/<role>.mdc`), else a
 * section of the instruction file it reads (AGENTS.md, GEMINI.md, …). An
 * existing definition is never overwritten unless asked, and nothing is written
 * where a link in the folder leads out of it or into its `.git` (a repository's
 * AGENTS.md that points at ~/.bashrc).
 */
export function writeRole(adapter: Adapter, cwd: string, role: Role, force = false): { path: string; replaced: boolean } {
  if (!NAME.test(role.name)) throw new OdError("INVALID_REQUEST", `Role name "${role.name}" must be lowercase letters, digits and dashes`);
  const path = roleFile(adapter, cwd, role.name);
  const description = role.description ?? `The ${role.name} role`;
  const body = role.prompt.trim();
  const out = !inside(cwd, path);
  if (out || inGitMetadata(cwd, path))
    throw new OdError(
      "INVALID_REQUEST",
      `${relative(cwd, path)} leads ${out ? `out of ${cwd}` : "into its .git"} (a link), so od does not write the role there`,
      "od writes a role only inside the folder: replace the link with a file or folder of its own.",
    );
  mkdirSync(dirname(path), { recursive: true });
  if (roleTarget(adapter).includes("{name}")) {
    const existed = existsSync(path);
    if (existed && !force) throw new OdError("INVALID_REQUEST", `${relative(cwd, path)} already exists`, "Pass --force to replace it.");
    const header = path.endsWith(".mdc")
      ? `---\ndescription: ${JSON.stringify(description)}\nalwaysApply: false\n---\n`
      : `---\nname: ${role.name}\ndescription: ${JSON.stringify(description)}\n---\n`;
    writeFileSync(path, `${header}\n${body}\n`);
    return { path, replaced: existed };
  }
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  const section = `${sectionTitle(role.name)}\n\n${description}.\n\n${body}\n`;
  const at = text.indexOf(sectionTitle(role.name));
  if (at >= 0 && !force)
    throw new OdError("INVALID_REQUEST", `${relative(cwd, path)} already defines the role ${role.name}`, "Pass --force to replace it.");
  const next =
    at >= 0
      ? text.slice(0, at) + section + restAfter(text, at)
      : `${text}${text && !text.endsWith("\n\n") ? (text.endsWith("\n") ? "\n" : "\n\n") : ""}${section}`;
  writeFileSync(path, next);
  return { path, replaced: at >= 0 };
}

/** The text after a "## Role:" section: from the next level-2 heading on. */
function restAfter(text: string, at: number): string {
  const next = text.indexOf("\n## ", at + 1);
  return next >= 0 ? text.slice(next + 1) : "";
}

/** For `od run --role`: the role must exist; agents without a role flag are told where to find it. */
export function useRole(adapter: Adapter, cwd: string, name: string): { promptPrefix?: string } {
  const path = roleFile(adapter, cwd, name);
  const file = roleTarget(adapter).includes("{name}");
  const defined = existsSync(path) && (file || readFileSync(path, "utf8").includes(sectionTitle(name)));
  if (!defined)
    throw new OdError(
      "INVALID_REQUEST",
      `No role "${name}" for ${adapter.name} in ${relative(cwd, path) || path}`,
      `Create it: od init --agent ${adapter.id} --role ${name} --prompt-file <file>`,
    );
  if (adapter.capabilities.roles) return {}; // the adapter passes ctx.role to the CLI's own flag
  const where = file ? relative(cwd, path) : `${relative(cwd, path)} (section "${sectionTitle(name)}")`;
  return { promptPrefix: `Act as the "${name}" role defined in ${where}.` };
}
