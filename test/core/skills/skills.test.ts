import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { loadSkills } from "../../../src/builtins.ts";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { validateAdapter } from "../../../src/core/contract/adapter.ts";
import { ASSET_ROOT, applySkills } from "../../../src/core/skills/apply.ts";
import { parseSkillMd } from "../../../src/core/skills/catalog.ts";
import { collect, finished, installFake, ofType, tmpdir } from "../../helpers.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";
import { runAgent } from "../../support/run.ts";

/** Every file under dir with its bytes: "byte-identical before and after" made checkable. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = join(d.parentPath, d.name);
    out[relative(dir, full)] = d.isSymbolicLink()
      ? `<link to ${readlinkSync(full)}>`
      : d.isFile()
        ? readFileSync(full, "base64")
        : statSync(full).isDirectory()
          ? "<dir>"
          : "<other>";
  }
  return out;
}

const withStrategy = (skills: "native" | "file" | "prompt", skillTarget?: string) =>
  validateAdapter({ ...fakeAdapter, capabilities: { ...fakeAdapter.capabilities, skills }, skillTarget });

describe("SKILL.md", () => {
  test("front-matter is parsed and validated; extras are kept", () => {
    const ok = parseSkillMd("---\nname: my-skill\ndescription: Does a thing\ntriggers: [a, b]\nauthor: me\n---\n\n# Body\ntext\n");
    expect(ok.meta).toEqual({ name: "my-skill", description: "Does a thing", triggers: ["a", "b"], author: "me" });
    expect(ok.body).toBe("# Body\ntext");
    expect(() => parseSkillMd("# no header")).toThrow("front-matter");
    expect(() => parseSkillMd("---\nname: [unclosed\n---\nx")).toThrow("YAML");
    expect(() => parseSkillMd("---\nname: Bad Name\ndescription: x\n---\nx")).toThrow("lowercase");
    expect(() => parseSkillMd("---\nname: ok\n---\nx")).toThrow("description");
  });

  test("bundled skills load; a user skill shadows one by name; a broken one is reported, not fatal", async () => {
    await using tmp = tmpdir();
    const mine = join(tmp.path, "skills");
    mkdirSync(join(mine, "code-review"), { recursive: true });
    writeFileSync(join(mine, "code-review/SKILL.md"), "---\nname: code-review\ndescription: my own review\n---\nReview my way.");
    mkdirSync(join(mine, "broken"));
    writeFileSync(join(mine, "broken/SKILL.md"), "no front-matter here");
    const catalog = await loadSkills([mine], { HOME: tmp.path, OD_HOME: join(tmp.path, ".od") });
    expect([...catalog.skills.keys()].sort()).toEqual(["code-review", "commit-message", "web-page"]);
    expect(catalog.skills.get("code-review")).toMatchObject({ source: join(mine, "code-review"), body: "Review my way." });
    expect(catalog.skills.get("web-page")!.source).toBe("bundled");
    expect(Object.keys(catalog.skills.get("web-page")!.files).sort()).toEqual([
      "SKILL.md",
      "assets/template.html",
      "references/accessibility.md",
    ]);
    expect(catalog.errors).toEqual([{ path: join(mine, "broken"), error: expect.stringContaining("front-matter") }]);
  });
});

describe("skill strategies", () => {
  test("prompt: the body and only the references it mentions; assets placed, then removed", async () => {
    await using tmp = tmpdir();
    const catalog = await loadSkills([], { HOME: tmp.path, OD_HOME: join(tmp.path, ".od") });
    const before = snapshot(tmp.path);
    const applied = await applySkills([catalog.skills.get("web-page")!], withStrategy("prompt"), tmp.path, "Make a page about otters.");
    expect(applied.prompt).toContain('<skill name="web-page">');
    expect(applied.prompt).toContain('<reference path="references/accessibility.md">');
    expect(applied.prompt).toContain(`${ASSET_ROOT}/web-page/`);
    expect(applied.prompt.endsWith("Make a page about otters.")).toBe(true);
    expect(readFileSync(join(tmp.path, ASSET_ROOT, "web-page/template.html"), "utf8")).toContain("<!doctype html>");
    applied.undo();
    expect(snapshot(tmp.path)).toEqual(before);
  });

  test("a skill's file already in place (another run's, or left by a killed one) is never overwritten or removed: refused, with what to do", async () => {
    await using tmp = tmpdir();
    const catalog = await loadSkills([], { HOME: tmp.path, OD_HOME: join(tmp.path, ".od") });
    const webPage = [catalog.skills.get("web-page")!];
    const first = await applySkills(webPage, withStrategy("prompt"), tmp.path, "x"); // still running
    const before = snapshot(tmp.path);
    const refused = await applySkills(webPage, withStrategy("prompt"), tmp.path, "x").catch((err) => err);
    expect(refused).toMatchObject({
      code: "INVALID_REQUEST",
      message: expect.stringContaining("template.html"),
      hint: expect.stringContaining(`remove ${ASSET_ROOT}/web-page`),
    });
    expect(snapshot(tmp.path)).toEqual(before); // the first run's files are untouched
    expect(first.undo()).toEqual([]);
    expect(snapshot(tmp.path)).toEqual({});
  });

  test("native: copied where the agent loads skills, removed after; the user's own files there survive", async () => {
    await using tmp = tmpdir();
    mkdirSync(join(tmp.path, ".claude"));
    writeFileSync(join(tmp.path, ".claude/settings.json"), "{}");
    const catalog = await loadSkills([], { HOME: tmp.path, OD_HOME: join(tmp.path, ".od") });
    const before = snapshot(tmp.path);
    const applied = await applySkills(
      [catalog.skills.get("code-review")!],
      withStrategy("native", ".claude/skills"),
      tmp.path,
      "review please",
    );
    expect(readFileSync(join(tmp.path, ".claude/skills/code-review/references/checklist.md"), "utf8")).toContain("Review checklist");
    expect(applied.prompt).toBe('Use the skill "code-review" (.claude/skills/code-review) for this task.\n\n---\n\nreview please');
    writeFileSync(join(tmp.path, ".claude/agent-wrote-this"), "x"); // the agent's own file in a folder od did not create
    applied.undo();
    expect(snapshot(tmp.path)).toEqual({ ...before, ".claude/agent-wrote-this": Buffer.from("x").toString("base64") });
  });

  test("native and file never overwrite: a taken place falls back to the prompt and stays untouched", async () => {
    await using tmp = tmpdir();
    mkdirSync(join(tmp.path, ".claude/skills/code-review"), { recursive: true });
    writeFileSync(join(tmp.path, ".claude/skills/code-review/SKILL.md"), "the user's own");
    writeFileSync(join(tmp.path, "AGENTS.md"), "# my agents file\n");
    const catalog = await loadSkills([], { HOME: tmp.path, OD_HOME: join(tmp.path, ".od") });
    const before = snapshot(tmp.path);
    const native = await applySkills([catalog.skills.get("code-review")!], withStrategy("native", ".claude/skills"), tmp.path, "x");
    const file = await applySkills([catalog.skills.get("commit-message")!], withStrategy("file", "AGENTS.md"), tmp.path, "x");
    expect(native.prompt).toContain('<skill name="code-review">');
    expect(file.prompt).toContain('<skill name="commit-message">');
    expect(snapshot(tmp.path)).toEqual(before);
    expect(ofType(native.notes as never, "status")[0]?.detail).toContain("left alone");
  });

  test("a place that a link in the folder leads out of it (or into its .git) is not written: the skill goes into the prompt", async () => {
    await using tmp = tmpdir();
    const repo = join(tmp.path, "repo");
    const outside = join(tmp.path, "outside"); // a user's own folder, elsewhere (~/.claude, ~/.cursor)
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(outside);
    // A hostile repository's links: each place od would write a skill to leads out of the folder.
    symlinkSync(outside, join(repo, ".claude"));
    symlinkSync(join(outside, "cursor-not-yet"), join(repo, ".cursor")); // a link to nothing yet: a write would create it
    symlinkSync(join(repo, ".git"), join(repo, ASSET_ROOT));
    const catalog = await loadSkills([], { HOME: tmp.path, OD_HOME: join(tmp.path, ".od") });
    const before = { repo: snapshot(repo), outside: snapshot(outside) };
    const native = await applySkills([catalog.skills.get("code-review")!], withStrategy("native", ".claude/skills"), repo, "x");
    const file = await applySkills([catalog.skills.get("commit-message")!], withStrategy("file", ".cursor/rules/{name}.mdc"), repo, "x");
    const prompt = await applySkills([catalog.skills.get("web-page")!], withStrategy("prompt"), repo, "x");
    expect({ repo: snapshot(repo), outside: snapshot(outside) }).toEqual(before);
    expect(native.prompt).toContain('<skill name="code-review">');
    expect(file.prompt).toContain('<skill name="commit-message">');
    expect(prompt.prompt).toContain('<skill name="web-page">');
    expect(prompt.prompt).not.toContain(ASSET_ROOT);
    expect(ofType(native.notes as never, "status")[0]?.detail).toContain("leads out of the folder");
    expect(ofType(prompt.notes as never, "status")[0]?.detail).toContain("its assets are not placed");
    for (const applied of [native, file, prompt]) expect(applied.undo()).toEqual([]);
  });

  test("undo removes nothing through a link the agent made meanwhile: a copy of the skill elsewhere survives, and is said", async () => {
    await using tmp = tmpdir();
    const repo = join(tmp.path, "repo");
    mkdirSync(repo);
    const catalog = await loadSkills([], { HOME: tmp.path, OD_HOME: join(tmp.path, ".od") });
    const skill = catalog.skills.get("code-review")!;
    const applied = await applySkills([skill], withStrategy("native", ".claude/skills"), repo, "x");
    // The agent (edit mode may write its folder) swaps the placed folder for a link to a byte-identical
    // copy outside: the user's own source of the skill, say.
    const source = join(tmp.path, "my-skills/code-review");
    cpSync(join(repo, ".claude/skills/code-review"), source, { recursive: true });
    rmSync(join(repo, ".claude/skills/code-review"), { recursive: true });
    symlinkSync(source, join(repo, ".claude/skills/code-review"));
    const before = snapshot(source);
    const kept = applied.undo();
    expect(snapshot(source)).toEqual(before);
    expect(kept).toContain(".claude/skills/code-review/SKILL.md");
  });

  test("file: an instruction file written before, removed after; dry runs write nothing", async () => {
    await using tmp = tmpdir();
    const catalog = await loadSkills([], { HOME: tmp.path, OD_HOME: join(tmp.path, ".od") });
    const cursor = withStrategy("file", ".cursor/rules/{name}.mdc");
    const dry = await applySkills([catalog.skills.get("commit-message")!], cursor, tmp.path, "x", { dryRun: true });
    expect(snapshot(tmp.path)).toEqual({});
    expect(dry.prompt).toBe("x");
    const applied = await applySkills([catalog.skills.get("commit-message")!], cursor, tmp.path, "x");
    const rule = readFileSync(join(tmp.path, ".cursor/rules/commit-message.mdc"), "utf8");
    expect(
      rule.startsWith('---\ndescription: "Write a clear, honest commit message for the staged changes."\nalwaysApply: true\n---\n'),
    ).toBe(true);
    expect(rule).toContain("Commit message");
    applied.undo();
    expect(snapshot(tmp.path)).toEqual({});
  });
});

describe("skills in a run", () => {
  test("the agent gets the skill; the folder is byte-identical after, even when the run fails", async () => {
    await using tmp = tmpdir();
    const work = join(tmp.path, "work");
    mkdirSync(work);
    writeFileSync(join(work, "main.ts"), "export {}\n");
    const fake = installFake(tmp.path, "fake-agent", [{ read: "all" }, { stdout: { t: "text", v: "ok" } }, { exit: 3 }]);
    const registry = createRegistry([withStrategy("native", ".claude/skills")]);
    const before = snapshot(work);
    const events = await collect(
      runAgent(
        { agent: "fake", prompt: "review", cwd: work, skills: ["code-review"] },
        { registry, env: fake.env, skills: () => loadSkills([], fake.env) },
      ),
    );
    expect(fake.recorded().stdin[0]).toContain('Use the skill "code-review"');
    expect(ofType(events, "status").map((e) => e.detail)).toContain(
      "code-review: placed in .claude/skills/code-review for Fake Agent to load",
    );
    expect(finished(events).status).toBe("failed");
    expect(snapshot(work)).toEqual(before);
  });

  test("an instruction file the agent rewrote is its work: it stays, and the run says so", async () => {
    await using tmp = tmpdir();
    const work = join(tmp.path, "work");
    mkdirSync(work);
    const fake = installFake(tmp.path, "fake-agent", [{ read: "all" }, { touch: "AGENTS.md" }, { stdout: { t: "text", v: "ok" } }]);
    const registry = createRegistry([withStrategy("file", "AGENTS.md")]);
    const events = await collect(
      runAgent(
        { agent: "fake", prompt: "write an AGENTS.md", cwd: work, skills: ["commit-message"] },
        { registry, env: fake.env, skills: () => loadSkills([], fake.env) },
      ),
    );
    expect(readdirSync(work)).toEqual(["AGENTS.md"]);
    expect(readFileSync(join(work, "AGENTS.md"), "utf8")).not.toContain("<skill");
    expect(events.at(-3)).toMatchObject({
      type: "status",
      label: "skill",
      detail: "AGENTS.md was changed during the run, so it is the agent's work and stays",
    });
    expect(finished(events).status).toBe("succeeded");
  });

  test("an unknown skill is refused before anything starts, with the list", async () => {
    await using tmp = tmpdir();
    const events = await collect(
      runAgent(
        { agent: "fake", prompt: "x", cwd: tmp.path, skills: ["nope"] },
        {
          registry: createRegistry([fakeAdapter]),
          env: { HOME: tmp.path, OD_HOME: join(tmp.path, ".od") },
          skills: () => loadSkills([], { HOME: tmp.path }),
        },
      ),
    );
    expect(ofType(events, "error")[0]).toMatchObject({ code: "INVALID_REQUEST", hint: expect.stringContaining("code-review") });
  });
});
