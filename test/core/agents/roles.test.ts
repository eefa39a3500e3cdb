import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { useRole, writeRole } from "../../../src/core/agents/roles.ts";
import { type InvokeContext, validateAdapter } from "../../../src/core/contract/adapter.ts";
import { collect, installFake, ofType, tmpdir } from "../../helpers.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";
import { runAgent } from "../../support/run.ts";

const withRoles = (roleTarget: string | undefined, roles = false) =>
  validateAdapter({
    ...fakeAdapter,
    roleTarget,
    capabilities: { ...fakeAdapter.capabilities, roles },
    invoke: (ctx: InvokeContext) => ({ argv: ctx.role ? ["--agent", ctx.role] : [], stdin: ctx.prompt }),
  });

describe("roles", () => {
  test("a file per role in the agent's format, never overwritten unless forced", async () => {
    await using tmp = tmpdir();
    const claudeLike = withRoles(".claude/agents/{name}.md", true);
    const { path } = writeRole(claudeLike, tmp.path, { name: "reviewer", description: "Reviews diffs", prompt: "You review code.\n" });
    expect(readFileSync(path, "utf8")).toBe('---\nname: reviewer\ndescription: "Reviews diffs"\n---\n\nYou review code.\n');
    expect(() => writeRole(claudeLike, tmp.path, { name: "reviewer", prompt: "x" })).toThrow("already exists");
    expect(writeRole(claudeLike, tmp.path, { name: "reviewer", prompt: "v2" }, true).replaced).toBe(true);
    const cursorLike = withRoles(".cursor/rules/{name}.mdc");
    expect(readFileSync(writeRole(cursorLike, tmp.path, { name: "tester", prompt: "Write tests." }).path, "utf8")).toContain(
      "alwaysApply: false",
    );
    expect(() => writeRole(claudeLike, tmp.path, { name: "Bad Name", prompt: "x" })).toThrow("lowercase");
  });

  test("a section of the instruction file, next to the user's own text", async () => {
    await using tmp = tmpdir();
    writeFileSync(join(tmp.path, "AGENTS.md"), "# Project rules\n\nUse tabs.\n");
    const plain = withRoles(undefined);
    writeRole(plain, tmp.path, { name: "reviewer", prompt: "Review carefully." });
    writeRole(plain, tmp.path, { name: "tester", prompt: "Test everything." });
    writeRole(plain, tmp.path, { name: "reviewer", prompt: "Review gently." }, true);
    expect(readFileSync(join(tmp.path, "AGENTS.md"), "utf8")).toBe(
      "# Project rules\n\nUse tabs.\n\n## Role: reviewer\n\nThe reviewer role.\n\nReview gently.\n## Role: tester\n\nThe tester role.\n\nTest everything.\n",
    );
    expect(useRole(plain, tmp.path, "tester").promptPrefix).toBe(
      'Act as the "tester" role defined in AGENTS.md (section "## Role: tester").',
    );
    expect(() => useRole(plain, tmp.path, "nobody")).toThrow(expect.objectContaining({ hint: expect.stringContaining("od init") }));
  });

  test("a role file that a link in the folder leads out of it (or into its .git) is refused, and nothing is written", async () => {
    await using tmp = tmpdir();
    const repo = join(tmp.path, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    const profile = join(tmp.path, "bashrc"); // a user's own file elsewhere
    writeFileSync(profile, "export PATH=$HOME/bin:$PATH\n");
    mkdirSync(join(tmp.path, "elsewhere"));
    // A hostile repository's links: the instruction file, the agent's folder, and one into .git.
    symlinkSync(profile, join(repo, "AGENTS.md"));
    symlinkSync(join(tmp.path, "elsewhere"), join(repo, ".claude"));
    symlinkSync(join(repo, ".git"), join(repo, ".cursor"));
    // And links to what is not there yet: writing through one would create it, out there.
    symlinkSync(join(tmp.path, "not-yet.txt"), join(repo, "GEMINI.md"));
    symlinkSync(join(tmp.path, "not-yet-dir"), join(repo, ".kiro"));
    const targets = [undefined, ".claude/agents/{name}.md", ".cursor/rules/{name}.mdc", "GEMINI.md", ".kiro/agents/{name}.md"];
    for (const target of targets)
      expect(() => writeRole(withRoles(target), repo, { name: "reviewer", prompt: "x" }, true)).toThrow(
        expect.objectContaining({ code: "INVALID_REQUEST", message: expect.stringMatching(/leads (out of|into its .git)/) }),
      );
    expect(readFileSync(profile, "utf8")).toBe("export PATH=$HOME/bin:$PATH\n");
    expect(readdirSync(join(tmp.path, "elsewhere"))).toEqual([]);
    expect(readdirSync(join(repo, ".git"))).toEqual([]);
    expect(readdirSync(tmp.path).sort()).toEqual(["bashrc", "elsewhere", "repo"]);
  });

  test("od run --role: the CLI's own flag where it has one, else the prompt names the role; a missing role is refused", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ read: "all" }, { stdout: { t: "text", v: "ok" } }]);
    const claudeLike = withRoles(".claude/agents/{name}.md", true);
    writeRole(claudeLike, tmp.path, { name: "reviewer", prompt: "You review." });
    await collect(
      runAgent(
        { agent: "fake", prompt: "look", cwd: tmp.path, role: "reviewer" },
        { registry: createRegistry([claudeLike]), env: fake.env },
      ),
    );
    expect(fake.recorded()).toMatchObject({ argv: ["--agent", "reviewer"], stdin: ["look"] });
    const missing = await collect(
      runAgent({ agent: "fake", prompt: "look", cwd: tmp.path, role: "ghost" }, { registry: createRegistry([claudeLike]), env: fake.env }),
    );
    expect(ofType(missing, "error")[0]?.hint).toContain("od init --agent fake --role ghost");
  });
});
