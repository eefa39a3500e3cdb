import { accessSync, constants, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { loadRegistry } from "../builtins.ts";
import { detectCached } from "../core/agents/detect-cache.ts";
import { PROBE_SLOW } from "../core/agents/detection.ts";
import type { Registry } from "../core/agents/registry.ts";
import { odHome, pluginDirs } from "../core/os/paths.ts";
import { sandboxSupport } from "../core/os/sandbox/choose.ts";
import { liveCheck } from "../core/run/live-check.ts";
import { ABOUT } from "./about.ts";
import { gettingStarted } from "./agents-view.ts";
import { odCommand } from "./command.ts";
import { installFindings } from "./doctor-install.ts";
import { log } from "./log.ts";
import { stdout } from "./out.ts";
import { supportLine } from "./sandbox.ts";
import { printJson } from "./table.ts";

interface Finding {
  level: "ok" | "warn" | "broken";
  what: string;
  fix?: string;
  /** Agent id -> the command that installs it, for the agents not installed. */
  install?: Record<string, string>;
}

export default odCommand({
  meta: { name: "doctor", description: ABOUT.doctor },
  args: {
    json: { type: "boolean", description: "Print JSON for scripts (with every agent's install command)" },
    all: { type: "boolean", description: "Also list the install command of every agent not installed" },
    live: { type: "boolean", description: "Also send one tiny read-only prompt to each installed agent (uses your account)" },
    refresh: { type: "boolean", default: true, description: "Probe every agent afresh (the default; --no-refresh uses the 24 h cache)" },
  },
  async run({ args }) {
    const registry = await loadRegistry();
    const { detections } = await detectCached(
      registry.list().map((e) => e.adapter),
      { refresh: args.refresh },
    );
    const findings: Finding[] = [];
    for (const d of detections) {
      if (d.status === "ready") {
        findings.push({
          level: "ok",
          what: `${d.id} ${d.version ?? "(version unverified)"} at ${d.path} (auth: ${d.auth}${d.confident ? "" : ", no config folder yet"})`,
        });
        // Notes on a usable agent (a probe too slow to answer): worth knowing, nothing broken.
        for (const p of d.problems) findings.push({ level: "warn", what: `${d.id}: ${p.message}`, fix: p.hint });
      } else if (d.status !== "missing")
        for (const p of d.problems)
          findings.push({ level: p.code === PROBE_SLOW ? "warn" : "broken", what: `${d.id}: ${p.message}`, fix: p.hint });
    }
    for (const d of detections.filter((x) => x.via === "tool-dir" && x.path))
      findings.push({
        level: "warn",
        what: `${d.id} was found in ${dirname(d.path!)}, which is not on PATH`,
        fix: `add ${dirname(d.path!)} to PATH so other programs find it too`,
      });
    const missing = notInstalled(
      detections.filter((d) => d.status === "missing").map((d) => d.id),
      registry,
    );
    const noneReady: Finding | undefined = detections.some((d) => d.status === "ready")
      ? undefined
      : {
          level: "broken",
          what: "no agent CLI is ready to use",
          fix: missing ? "install one with its command below" : "fix one of those above",
        };
    if (noneReady) findings.push(noneReady);
    if (missing) findings.push(missing);
    for (const e of registry.errors)
      findings.push({ level: "broken", what: `plugin ${e.path} failed to load: ${e.error}`, fix: "fix or remove the file" });
    const od = installFindings();
    findings.push(...od.findings, dataDir());
    const sandbox = sandboxSupport();
    findings.push({
      level: sandbox.kind === "none" || sandbox.reason ? "warn" : "ok",
      what: supportLine(sandbox),
      fix: sandbox.kind === "none" ? "Linux 5.13+ with Landlock enabled (and user namespaces for .git), or macOS" : undefined,
    });
    // Ctrl-C cancels the live checks (each agent's whole process group), then the report says so;
    // a second one leaves at once (od's exit handler still stops the agents).
    const controller = new AbortController();
    const cancel = () => (controller.signal.aborted ? process.exit(130) : controller.abort());
    process.on("SIGINT", cancel);
    process.on("SIGTERM", cancel);
    const installed = detections.filter((d) => d.installed);
    if (args.live && installed.length)
      log.info(`sending one read-only prompt to ${installed.map((d) => d.id).join(", ")} (up to 2 min each; Ctrl-C cancels)`);
    const live = args.live ? await Promise.all(installed.map((d) => liveCheck(d.id, registry, { signal: controller.signal }))) : [];
    process.off("SIGINT", cancel);
    process.off("SIGTERM", cancel);
    for (const r of live) {
      if (r.status === "succeeded" && r.written.length === 0)
        findings.push({
          level: "ok",
          what: `${r.agent} answered in ${(r.durationMs / 1000).toFixed(1)}s${r.model ? ` (${r.model})` : ""}: ${JSON.stringify(r.answer.trim().slice(0, 60))}`,
        });
      else if (r.written.length)
        findings.push({
          level: "broken",
          what: `${r.agent} wrote ${r.written.join(", ")} during a read-only check`,
          fix: "report this: the read-only mode did not hold",
        });
      else
        findings.push({
          level: "broken",
          what: `${r.agent} live check ${r.status}: ${r.error?.message ?? "no answer"} [${r.error?.code ?? "?"}]`,
          fix: r.error?.hint,
        });
    }
    const ok = !findings.some((f) => f.level === "broken");
    if (!ok) process.exitCode = controller.signal.aborted ? 130 : 1;
    if (args.json) return printJson({ ok, findings, detections, live, pluginDirs: pluginDirs(), sandbox, od: od.installs });
    // Without --all, the 40-odd install commands are one line; with no agent ready, how to get one instead.
    const guide = (f: Finding) =>
      `${asText({ ...f, fix: undefined })}${gettingStarted((id) => registry.get(id)?.adapter.install)
        .map((l) => `    ${l}\n`)
        .join("")}`;
    const text = (f: Finding) => (args.all ? asText(f) : f === noneReady && missing ? guide(f) : f.install ? brief(f) : asText(f));
    await stdout.write(findings.map(text).join(""));
  },
});

/** The agents not installed, as one finding with the command that installs each. */
function notInstalled(ids: string[], registry: Registry): Finding | undefined {
  if (!ids.length) return undefined;
  const install: Record<string, string> = {};
  for (const id of ids) {
    const command = registry.get(id)?.adapter.install;
    if (command) install[id] = command;
  }
  return { level: "warn", what: `not installed: ${ids.join(", ")}`, fix: "to install one, run its command:", install };
}

/** The agents not installed in one line: their commands are `--all`'s (40 of them drowned the report). */
function brief(f: Finding): string {
  const n = Object.keys(f.install ?? {}).length;
  return `${asText({ level: f.level, what: `${n} agent${n === 1 ? "" : "s"} not installed: \`od doctor --all\` lists their install commands` })}`;
}

function asText(f: Finding): string {
  const lines = [`${{ ok: "✓", warn: "!", broken: "✗" }[f.level]} ${f.what}`];
  if (f.fix) lines.push(`    → ${f.fix}`);
  const install = Object.entries(f.install ?? {});
  const width = Math.max(0, ...install.map(([id]) => id.length));
  for (const [id, command] of install) lines.push(`      ${id.padEnd(width)}  ${command}`);
  return `${lines.join("\n")}\n`;
}

function dataDir(): Finding {
  const dir = odHome();
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK | constants.R_OK);
    return { level: "ok", what: `data folder ${dir} is writable` };
  } catch (err) {
    return {
      level: "broken",
      what: `data folder ${dir} is not writable (${(err as Error).message})`,
      fix: `fix its permissions, or set OD_HOME to a writable folder`,
    };
  }
}
