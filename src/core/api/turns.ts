import { realpathSync } from "node:fs";
import { OdError } from "../contract/errors.ts";
import type { Mode, OdEventBody } from "../contract/events.ts";
import type { LoopContext } from "../contract/loop.ts";
import { anthropicClient } from "./anthropic.ts";
import { type ApiConfig, resolveConfig } from "./config.ts";
import { addUser, type Block, loadSession, newSession, saveSession } from "./conversation.ts";
import { endpointModels } from "./endpoint.ts";
import { openaiClient } from "./openai.ts";
import { runTool, toolsFor } from "./tools.ts";
import type { Usage } from "./types.ts";

/**
 * The turns of od's own agent loop (api/loop.ts): the prompt goes to the model with the mode's
 * tools; each tool call is run and answered until the model stops calling tools, a turn limit or a
 * token budget is reached, or the run is cancelled. The conversation is saved after every step.
 */
export async function* runTurns(ctx: LoopContext): AsyncGenerator<OdEventBody> {
  const total: Usage = {};
  let turns = 0;
  let costKnown = true;
  try {
    const config = resolveConfig(ctx.settings, ctx.env);
    const root = realpathSync(ctx.cwd);
    const session = config.resume ? loadSession(ctx.env, config.resume) : newSession(root);
    const model = config.model ?? (await discoverModel(config, ctx));
    yield { type: "session", sessionId: session.id, model };
    yield {
      type: "status",
      label: "api",
      detail: `${config.provider} ${model} at ${config.baseUrl}; tools: ${toolsFor(config.mode)
        .map((t) => t.name)
        .join(", ")}`,
    };
    if (session.cwd !== root)
      yield { type: "status", label: "api", detail: `this session was started in ${session.cwd}; its paths now resolve in ${root}` };
    addUser(session.messages, [{ type: "text", text: ctx.prompt }]);
    saveSession(ctx.env, session);
    const client = config.provider === "anthropic" ? anthropicClient : openaiClient;
    const tools = toolsFor(config.mode);
    const system = systemPrompt(root, config.mode);
    for (;;) {
      const used = (total.inputTokens ?? 0) + (total.outputTokens ?? 0);
      const resume = `Continue with --resume ${session.id}`;
      if (turns >= config.maxTurns)
        throw new OdError(
          "AGENT_ERROR",
          `Stopped after ${turns} model turns (the limit is ${config.maxTurns})`,
          `${resume}, or raise OD_API_MAX_TURNS.`,
        );
      if (used >= config.maxTokens)
        throw new OdError(
          "AGENT_ERROR",
          `Stopped after ${used} tokens in ${turns} turns (the budget is ${config.maxTokens})`,
          `${resume}, or raise OD_API_MAX_TOKENS.`,
        );
      turns++;
      const result = yield* client(
        { model, system, messages: session.messages, tools, turn: turns },
        { config, signal: ctx.signal, note: ctx.note },
      );
      costKnown &&= result.usage.costUsd !== undefined;
      add(total, result.usage);
      yield { type: "usage", ...result.usage, source: "turn" };
      session.messages.push({ role: "assistant", content: result.content });
      const calls = result.content.filter((b): b is Extract<Block, { type: "tool_use" }> => b.type === "tool_use");
      if (!calls.length) {
        saveSession(ctx.env, session);
        if (result.stopReason === "max_tokens" || result.stopReason === "length")
          yield { type: "status", label: "api", detail: "the answer was cut off at the output limit" };
        break;
      }
      const results: Block[] = [];
      for (const call of calls) {
        if (ctx.signal.aborted) return;
        const outcome = runTool(root, config.mode, call.name, call.input);
        yield { type: "tool.result", id: call.id, ...outcome };
        results.push({ type: "tool_result", id: call.id, ...outcome });
      }
      session.messages.push({ role: "user", content: results });
      saveSession(ctx.env, session);
    }
    yield runTotal(total, turns, costKnown);
  } catch (err) {
    if (ctx.signal.aborted) return; // cancelled or timed out: the pipeline says so
    if (turns) yield runTotal(total, turns, costKnown);
    yield { type: "error", ...OdError.from(err).toJSON() };
  }
}

function systemPrompt(root: string, mode: Mode): string {
  const tools = toolsFor(mode)
    .map((t) => t.name)
    .join(", ");
  return [
    `You are a coding agent working in the project directory ${root}.`,
    `Your tools: ${tools}. Paths are relative to the project directory; nothing outside it can be read or written. There is no shell and no network.`,
    mode === "read-only"
      ? "This run is read-only: read what you need and answer; do not try to change files."
      : "Make the changes the task needs with your tools.",
    "When you are done, reply with a short summary of what you found or changed.",
  ].join("\n");
}

function add(total: Usage, u: Usage): void {
  for (const k of ["inputTokens", "outputTokens", "cacheRead", "cacheWrite", "reasoningTokens", "costUsd"] as const)
    if (u[k] !== undefined) total[k] = (total[k] ?? 0) + u[k]!;
}

function runTotal(total: Usage, turns: number, costKnown: boolean): OdEventBody {
  const { costUsd, ...tokens } = total;
  return { type: "usage", ...tokens, ...(costKnown && turns ? { costUsd } : {}), source: "run" };
}

/** No model given for a custom OpenAI-compatible endpoint (Ollama, LM Studio, vLLM): the first one it lists. */
async function discoverModel(config: ApiConfig, ctx: LoopContext): Promise<string> {
  const { models, from } = await endpointModels(config, { signal: ctx.signal });
  const first = models[0];
  if (!first)
    throw new OdError(
      "MODEL_NOT_AVAILABLE",
      `No model given, and ${from.replace(/^GET /, "")} lists none`,
      "Pass --model, or set OD_API_MODEL.",
    );
  ctx.note(`no model given: using ${first}, the first of ${from}`);
  return first;
}
