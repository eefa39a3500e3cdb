import type { Invocation } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import type { OdEventBody } from "../contract/events.ts";
import type { Transport } from "../loops/transport.ts";
import { untilExit } from "../os/exit-cleanup.ts";
import { writePrivateFiles, writePromptFile } from "../os/private-files.ts";
import { AgentProcess } from "../os/process.ts";
import type { Ladder } from "../os/process-group.ts";
import { type Mark, REAP_WAITS, RUN_MARKER, reap, reapNow, runMark } from "../os/reap.ts";
import { ownerMark } from "../os/sentinel.ts";
import { type AppliedSkills, applySkills } from "../skills/apply.ts";
import type { Plan } from "./plan.ts";
import type { RunOptions } from "./request.ts";
import { isRunning, type Supervisor } from "./supervise.ts";

/**
 * What one attempt holds while it runs and must give back however it ends:
 * the skill files it placed, its prompt file, its run slot and its agent. If
 * od's own process exits under it (a second Ctrl-C), the exit handler still
 * ends the agent's group and removes the files.
 */
export class Held {
  transport: Transport | undefined;
  supervisor: Supervisor | undefined;
  private applied: AppliedSkills | undefined;
  private promptFile: { remove(): void } | undefined;
  private files: { remove(): void } | undefined;
  private releaseSlot: (() => void) | undefined;
  private readonly forget = untilExit(() => {
    if (this.transport instanceof AgentProcess) this.transport.killNow();
    const marks = this.marks();
    if (marks) reapNow(marks);
    this.applied?.undo();
    this.promptFile?.remove();
    this.files?.remove();
  });

  /** Places the plan's skills and writes its prompt file; returns the prompt the agent gets, and the notes to show. */
  async place(plan: Plan): Promise<{ prompt: string; notes: OdEventBody[] }> {
    let prompt = plan.request.prompt;
    if (plan.skills.length) {
      this.applied = await applySkills(plan.skills, plan.adapter, plan.request.cwd, prompt);
      prompt = this.applied.prompt;
    }
    if (plan.promptFile) this.promptFile = writePromptFile(plan.promptFile, prompt);
    return { prompt, notes: this.applied?.notes ?? [] };
  }

  /** Writes the files the invocation hands its CLI by path (its MCP config), in the plan's private folder, just before launch. */
  writeFiles(plan: Plan, invocation: Invocation): void {
    const files = invocation.files ?? {};
    if (!Object.keys(files).length) return;
    if (!plan.mcp.filesDir)
      throw new OdError("PLUGIN_ERROR", `${plan.adapter.name}'s invoke returned files, but no folder was planned for them`);
    this.files = writePrivateFiles(plan.mcp.filesDir, files);
  }

  /** Takes a run slot if one is free; otherwise the status that says the run waits for one. */
  queued(opts: Pick<RunOptions, "slots">): OdEventBody | undefined {
    const { slots } = opts;
    if (!slots) return undefined;
    this.releaseSlot = slots.tryAcquire();
    if (this.releaseSlot) return undefined;
    return { type: "status", label: "queued", detail: `waiting for a free run slot (${slots.running} of ${slots.limit} in use)` };
  }

  /** Waits for the slot `queued` could not take at once; a cancel before the agent starts ends the attempt. */
  async slot(opts: Pick<RunOptions, "slots" | "signal">): Promise<void> {
    if (opts.slots && !this.releaseSlot) this.releaseSlot = await opts.slots.acquire(opts.signal);
    if (opts.signal?.aborted) throw new OdError("CANCELLED", "Cancelled before the agent started");
  }

  /**
   * Gives everything back: the agent is ended if still there, the slot freed,
   * the skill files undone (even after a failure or a cancel: the user's folder
   * is left as it was). Returns the skill files the agent changed, which stay.
   */
  async release(ladder?: Ladder): Promise<string[]> {
    if (this.supervisor) await this.supervisor.close();
    else if (this.transport && (await isRunning(this.transport))) await this.transport.cancel(ladder);
    // What left the agent's group (setsid) outlived the cancel: it still carries the run's mark.
    const marks = this.marks();
    if (marks) await reap(marks, REAP_WAITS, this.transport instanceof AgentProcess ? this.transport.since : undefined);
    this.releaseSlot?.();
    const kept = this.applied?.undo() ?? [];
    for (const written of [this.promptFile, this.files])
      try {
        written?.remove();
      } catch {}
    this.forget(); // last: an exit during the cancel ladder above still cleans up
    return kept;
  }

  /** The marks of the agent's processes: its run, started by this od (reap.ts). */
  private marks(): Mark[] | undefined {
    const runId = this.transport instanceof AgentProcess ? this.transport.envValue(RUN_MARKER) : undefined;
    return runId === undefined ? undefined : [runMark(runId, ownerMark())];
  }
}
