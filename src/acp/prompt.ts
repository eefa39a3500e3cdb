import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentContext, ContentBlock, PromptResponse } from "@agentclientprotocol/sdk";
import { OdError } from "../core/contract/errors.ts";
import type { OdEvent } from "../core/contract/events.ts";
import type { RunRequest } from "../core/contract/request.ts";
import type { Runs } from "../core/runs/service.ts";
import { rpcError, runFailure } from "./errors.ts";
import { clientBroker } from "./permissions.ts";
import type { AcpSession } from "./sessions.ts";
import { Streamed } from "./streamed.ts";
import { newUpdateState, stopReasonOf, toUpdates } from "./updates.ts";

const EXT: Record<string, string> = { "image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp" };

/** A prompt's content blocks as od's prompt text and image files (written to `dir`). */
export function promptOf(blocks: ContentBlock[], dir: () => string): { text: string; images: string[] } {
  const parts: string[] = [];
  const images: string[] = [];
  for (const b of blocks) {
    if (b.type === "text") parts.push(b.text);
    else if (b.type === "resource_link") parts.push(`[${b.title ?? b.name}](${b.uri})`);
    else if (b.type === "resource" && "text" in b.resource)
      parts.push(`<resource uri="${b.resource.uri}">\n${b.resource.text}\n</resource>`);
    else if (b.type === "image") {
      const ext = EXT[b.mimeType];
      if (!ext) throw new OdError("INVALID_REQUEST", `Image type ${b.mimeType} is not supported`, `Send ${Object.keys(EXT).join(", ")}.`);
      const path = join(dir(), `image-${images.length + 1}${ext}`);
      writeFileSync(path, Buffer.from(b.data, "base64"));
      images.push(path);
    } else throw new OdError("INVALID_REQUEST", `Content of type ${b.type} is not supported`, "Send text, images or resources.");
  }
  return { text: parts.join("\n\n"), images };
}

export interface PromptDeps {
  client: AgentContext;
  /** od's run service: each prompt is a run of it (recorded with origin "acp"). */
  runs: Runs;
  log: (message: string) => void;
}

/**
 * One `session/prompt`: a run of the session's agent (resuming the agent's own session after the
 * first prompt), its events streamed to the client as `session/update`s in order, the agent's
 * permission requests asked of the client (each after the updates that came before it). Ends with ACP's stop reason, or throws od's error.
 */
export async function runPrompt(s: AcpSession, blocks: ContentBlock[], deps: PromptDeps): Promise<PromptResponse> {
  if (s.running) throw new OdError("INVALID_REQUEST", "A prompt is already running in this session", "Wait for it, or cancel it.");
  const controller = new AbortController();
  s.running = controller;
  let dir: string | undefined;
  const streamed = new Streamed();
  try {
    const { text, images } = promptOf(blocks, () => (dir ??= mkdtempSync(join(tmpdir(), "od-acp-"))));
    const request: RunRequest = { agent: s.agent, prompt: text, cwd: s.cwd, mode: s.mode, model: s.model, resume: s.resume, images };
    if (s.mcpServers?.length) request.mcpServers = s.mcpServers;
    const broker = clientBroker({
      client: deps.client,
      sessionId: s.id,
      mode: s.mode,
      cwd: s.cwd,
      log: deps.log,
      shown: streamed.reached.bind(streamed),
    });
    // A run refused before it started (an agent not installed) is the prompt's error, with od's code and hint.
    const run = await deps.runs.start(request, { origin: "acp", signal: controller.signal, broker }).catch((err) => {
      throw rpcError(err);
    });
    s.runs.push(run.runId);
    const seen: OdEvent[] = [];
    const state = newUpdateState();
    for await (const event of run.events()) {
      if (event.type === "error" || event.type === "status" || event.type === "run.finished") seen.push(event);
      if (event.type === "session") s.resume = event.sessionId;
      if (event.type === "run.finished") s.resume = event.resumable ? (event.sessionId ?? s.resume) : undefined;
      for (const update of toUpdates(event, state)) await deps.client.notify("session/update", { sessionId: s.id, update });
      if (event.type === "permission.request") streamed.pass(event.id);
    }
    const stopReason = stopReasonOf(seen);
    if (stopReason) return { stopReason };
    const first = seen.find((e) => e.type === "error");
    throw runFailure(first?.type === "error" ? first : undefined, s.agent);
  } finally {
    streamed.end();
    s.running = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
