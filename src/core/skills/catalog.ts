import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { lazySchema } from "../contract/lazy.ts";
import { z } from "../contract/zod.ts";
import { odHome } from "../os/paths.ts";

/** SKILL.md front-matter: name, description and triggers are checked; anything else is kept. */
export const SkillMeta = lazySchema(() =>
  z
    .object({
      name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "name must be lowercase letters, digits and dashes"),
      description: z.string().min(1),
      triggers: z.array(z.string()).default([]),
    })
    .passthrough(),
);
export type SkillMeta = z.infer<typeof SkillMeta>;

export interface Skill {
  meta: SkillMeta;
  /** SKILL.md without its front-matter. */
  body: string;
  /** "bundled", or the folder it was read from. */
  source: string;
  /** Every file of the skill, by path relative to its folder (SKILL.md, references/…, assets/…). */
  files: Record<string, () => Promise<Uint8Array>>;
}

export interface SkillCatalog {
  skills: Map<string, Skill>;
  errors: Array<{ path: string; error: string }>;
}

/** Splits `---\nyaml\n---\nbody`; throws a readable error on a missing or broken header. */
export function parseSkillMd(text: string): { meta: SkillMeta; body: string } {
  const m = text.match(/^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/);
  if (!m) throw new Error("SKILL.md must start with a --- front-matter block");
  let data: unknown;
  try {
    data = Bun.YAML.parse(m[1]!);
  } catch (err) {
    throw new Error(`front-matter is not valid YAML: ${(err as Error).message}`);
  }
  const parsed = SkillMeta.safeParse(data);
  if (!parsed.success) throw new Error(z.prettifyError(parsed.error));
  return { meta: parsed.data, body: m[2]!.trim() };
}

/**
 * The skills od can use: the bundled ones, then `~/.open-design/skills`, then
 * any extra folders; a later one with the same name shadows an earlier one.
 * A broken skill is reported with its path and never hides the others.
 */
export async function loadSkills(
  extraDirs: string[] = [],
  env: Record<string, string | undefined> = process.env,
  bundledSkillFiles: Record<string, string> = {},
): Promise<SkillCatalog> {
  const catalog: SkillCatalog = { skills: new Map(), errors: [] };
  const bundled = new Map<string, Record<string, () => Promise<Uint8Array>>>();
  for (const [rel, path] of Object.entries(bundledSkillFiles)) {
    const [name, ...rest] = rel.split("/");
    const files = bundled.get(name!) ?? {};
    files[rest.join("/")] = async () => new Uint8Array(await Bun.file(path).arrayBuffer());
    bundled.set(name!, files);
  }
  for (const [name, files] of bundled) await add(catalog, `bundled:${name}`, "bundled", files);
  for (const dir of [join(odHome(env), "skills"), ...extraDirs]) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const folder = join(dir, name);
      if (name.startsWith(".") || !isDir(folder)) continue;
      await add(catalog, folder, folder, diskFiles(folder));
    }
  }
  return catalog;
}

async function add(catalog: SkillCatalog, path: string, source: string, files: Skill["files"]): Promise<void> {
  try {
    const read = files["SKILL.md"];
    if (!read) throw new Error("no SKILL.md");
    const { meta, body } = parseSkillMd(new TextDecoder().decode(await read()));
    catalog.skills.set(meta.name, { meta, body, source, files });
  } catch (err) {
    catalog.errors.push({ path, error: (err as Error).message });
  }
}

function diskFiles(folder: string): Skill["files"] {
  const files: Skill["files"] = {};
  for (const d of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!d.isFile() || d.name.startsWith(".")) continue;
    const full = join(d.parentPath, d.name);
    files[relative(folder, full).split(sep).join("/")] = async () => new Uint8Array(readFileSync(full));
  }
  return files;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
