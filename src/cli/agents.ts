import { loadRegistry } from "../builtins.ts";
import { detectCached } from "../core/agents/detect-cache.ts";
import { sandboxSupport } from "../core/os/sandbox/choose.ts";
import { detectOnTargetCached } from "../core/remote/detect-cache.ts";
import { formatTarget, parseTarget } from "../core/remote/target.ts";
import { odCommand } from "./command.ts";
import { supportLine } from "./sandbox.ts";
import { printJson, table } from "./table.ts";

export const refreshArg = { refresh: { type: "boolean", description: "Probe again instead of using the 24 h cache" } } as const;

export default odCommand({
  meta: { name: "agents", description: "Which agent CLIs are installed, working and logged in" },
  args: {
    json: { type: "boolean", description: "Print JSON for scripts" },
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
    if (process.stderr.isTTY) process.stderr.write(`probing ${adapters.length} agents${where}…\r`);
    const { detections } = await (target
      ? detectOnTargetCached(adapters, target, { refresh: args.refresh })
      : detectCached(adapters, { refresh: args.refresh })
    ).finally(() => process.stderr.isTTY && process.stderr.write("\x1b[2K"));
    if (args.json) return printJson(detections);
    const rows = detections.map((d) => [
      d.id,
      d.status,
      d.version ?? (d.installed ? "unverified" : "-"),
      d.path ?? "-",
      d.installed ? d.auth : "-",
      d.models.length ? `${d.models.length} (${d.modelSource})` : "-",
    ]);
    process.stdout.write(`${table(["agent", "status", "version", "path", "auth", "models"], rows)}\n`);
    for (const d of detections)
      for (const p of d.problems)
        if (d.status !== "missing") process.stderr.write(`${d.id}: ${p.message}${p.hint ? ` — ${p.hint}` : ""}\n`);
    // A target's kernel is not od's to hold; this machine's is said once, under the table.
    if (!target) process.stderr.write(`${supportLine(sandboxSupport())}\n`);
  },
});
