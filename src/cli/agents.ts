import { loadRegistry } from "../builtins.ts";
import { detectCached } from "../core/agents/detect-cache.ts";
import { cachedSandboxSupport } from "../core/os/sandbox/support-cache.ts";
import { detectOnTargetCached } from "../core/remote/detect-cache.ts";
import { formatTarget, parseTarget } from "../core/remote/target.ts";
import { ABOUT } from "./about.ts";
import { gettingStarted, missingSummary, shownRows } from "./agents-view.ts";
import { odCommand } from "./command.ts";
import { stderr, stdout } from "./out.ts";
import { supportLine } from "./sandbox.ts";
import { printJson, table } from "./table.ts";

/** How long the probe runs before `od agents` says so on a terminal. */
const PROBING_AFTER_MS = 150;

export const refreshArg = { refresh: { type: "boolean", description: "Probe again instead of using the 24 h cache" } } as const;

export default odCommand({
  meta: { name: "agents", description: ABOUT.agents },
  args: {
    json: { type: "boolean", description: "Print JSON for scripts (every agent, installed or not)" },
    all: { type: "boolean", description: "List every agent od knows, the ones not installed too" },
    ...refreshArg,
    on: { type: "string", description: "Detect on a target instead: ssh://[user@]host[:port], docker://…, podman://…, kubectl://…" },
  },
  async run({ args }) {
    const registry = await loadRegistry();
    const target = args.on ? parseTarget(args.on) : undefined;
    // On a target: the CLIs only (od's own loops run in od), found on the target's PATH in one round trip.
    const adapters = registry
      .list()
      .map((e) => e.adapter)
      .filter((a) => !target || a.protocol.kind !== "loop");
    const where = target ? ` on ${formatTarget(target)}` : "";
    // Said only when the probe takes a while (a cached answer takes milliseconds, and asking
    // whether stderr is a terminal builds its stream: out.ts).
    let probing = false;
    const slow = setTimeout(() => {
      probing = Boolean(stderr.isTTY);
      if (probing) void stderr.write(`probing ${adapters.length} agents${where}…\r`);
    }, PROBING_AFTER_MS);
    const { detections } = await (target
      ? detectOnTargetCached(adapters, target, { refresh: args.refresh })
      : detectCached(adapters, { refresh: args.refresh })
    ).finally(async () => {
      clearTimeout(slow);
      if (probing) await stderr.write("\x1b[2K");
    });
    if (args.json) return printJson(detections);
    const shown = shownRows(detections, Boolean(args.all));
    const rows = shown.map((d) => [
      d.id,
      d.status,
      d.version ?? (d.installed ? "unverified" : "-"),
      d.path ?? "-",
      d.installed ? d.auth : "-",
      d.models.length ? `${d.models.length} (${d.modelSource})` : "-",
    ]);
    const lines = rows.length ? [table(["agent", "status", "version", "path", "auth", "models"], rows)] : [];
    // None ready: how to get one, under what is there (a CLI logged out, an endpoint down).
    if (!target && !detections.some((d) => d.status === "ready")) {
      const [first, ...rest] = gettingStarted((id) => registry.get(id)?.adapter.install);
      lines.push(...(rows.length ? [""] : []), `No agent is ready to use. ${first}`, ...rest);
    }
    const summary = args.all ? undefined : missingSummary(detections, target ? `od agents --on ${args.on}` : "od agents");
    if (summary) lines.push(summary);
    await stdout.write(`${lines.join("\n")}\n`);
    const problems = detections.flatMap((d) =>
      d.status === "missing" ? [] : d.problems.map((p) => `${d.id}: ${p.message}${p.hint ? ` — ${p.hint}` : ""}\n`),
    );
    // A target's kernel is not od's to hold; this machine's is said once, under the table.
    if (!target) problems.push(`${supportLine(cachedSandboxSupport(process.env, { keep: true }))}\n`);
    if (problems.length) await stderr.write(problems.join(""));
  },
});
