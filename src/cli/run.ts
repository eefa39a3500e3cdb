import { loadRegistry, loadSkills } from "../builtins.ts";
import { selectAgent } from "../core/agents/select.ts";
import { cachedSandboxSupport } from "../core/os/sandbox/support-cache.ts";
import { viewPlan } from "../core/run/dry-run.ts";
import { planRun } from "../core/run/plan.ts";
import { ABOUT } from "./about.ts";
import { odCommand } from "./command.ts";
import { isCompare } from "./compare-args.ts";
import { log } from "./log.ts";
import { printPlan, requestFrom, runArgs } from "./run-args.ts";
import { applySandbox } from "./sandbox.ts";

export { repeated } from "./run-args.ts";

/**
 * `od run`. A dry run plans and prints; what runs an agent (the run service, the renderers, the
 * history, the compare runs: run-live.ts) is loaded only when one is started.
 */
export default odCommand({
  meta: { name: "run", description: ABOUT.run },
  args: runArgs,
  async run({ args, rawArgs }) {
    applySandbox(args);
    const { base, attempts } = await requestFrom(args, rawArgs);
    const registry = await loadRegistry();
    if (registry.errors.length) log.warn(`${registry.errors.length} plugin(s) failed to load; see \`od plugins\``);
    const skills = () => loadSkills();
    if (isCompare(args)) return (await import("./run-live.ts")).runSeveral(args, base, registry, attempts);
    const { agent, because } = await selectAgent(registry, args.agent);
    if (because !== "--agent") log.info(`agent: ${agent} (${because})`);
    const request = { ...base, agent, resume: args.resume, role: args.role };
    // A dry run says what would hold the run from the helper's last answer (kept per boot): it places and probes nothing.
    const dry = { registry, skills, sandboxSupport: () => cachedSandboxSupport() };
    if (args["dry-run"]) return printPlan(viewPlan(await planRun(request, dry)), Boolean(args.json));
    process.exitCode = await (await import("./run-live.ts")).runOne(request, args, { registry, attempts });
  },
});
