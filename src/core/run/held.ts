import { OdError } from "../errors.ts";
import type { OdEventBody } from "../events.ts";
import type { Transport } from "../loops/transport.ts";
import { untilExit } from "../os/exit-cleanup.ts";
import { AgentProcess } from "../os/process.ts";
import type { Ladder } from "../os/process-group.ts";
import { writePromptFile } from "../os/prompt-file.ts";
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
  private releaseSlot: (() => void) | undefined;
  private readonly forget = untilExit(() => {
    if (this.transport instanceof AgentProcess) this.transport.killNow();
    this.applied?.undo();
    this.promptFile?.remove();
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

  /** Waits for a free run slot, saying so when it has to. */
  async *slot(opts: Pick<RunOptions, "slots" | "signal">): AsyncGenerator<OdEventBody> {
    const { slots } = opts;
    if (slots) {
      this.releaseSlot = slots.tryAcquire();
      if (!this.releaseSlot) {
        yield { type: "status", label: "queued", detail: `waiting for a free run slot (${slots.running} of ${slots.limit} in use)` };
        this.releaseSlot = await slots.acquire(opts.signal);
      }
    }
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
    this.releaseSlot?.();
    const kept = this.applied?.undo() ?? [];
    try {
      this.promptFile?.remove();
    } catch {}
    this.forget(); // last: an exit during the cancel ladder above still cleans up
    return kept;
  }
}
