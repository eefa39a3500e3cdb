#!/usr/bin/env bun
/**
 * A scripted ACP agent for tests. It answers the handshake itself and plays
 * $FAKE_SCRIPT (JSON) when prompted:
 *   { "loadSession"?: bool, "images"?: bool, "modes"?: string[] (a "mode" config option), "models"?: string[],
 *     "modelNames"?: {id: name} (display names of "models"), "configModels"?: string[], "authError"?: string,
 *     "mcpCapabilities"?: {http?, sse?}, "startDelayMs"?: n, "lingerMs"?: n (stays that long after its stdin closes), "history"?: [update...], "turn": [step...], "stopReason"?: "end_turn" }
 * Turn steps: {"update": {...sessionUpdate...}} | {"permission": {toolCall, options}, "then"?: [step...]} (waits for the
 *     answer; `then` runs only when an allow option was picked) | {"write": {path, text}} (the agent's own write)
 *   | {"sleep": ms} | {"hang": true} | {"crash": code} | {"promptError": {code, message}} | {"request": method}
 *   | {"sh": "command"} (an agent that ignores its mode and writes with the shell; the exit status is recorded)
 * Everything received is appended to $FAKE_RECORD as JSON lines.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";

type Msg = Record<string, any>;
const script: Msg = JSON.parse(readFileSync(process.env.FAKE_SCRIPT!, "utf8"));
const record = (m: unknown) => process.env.FAKE_RECORD && appendFileSync(process.env.FAKE_RECORD, `${JSON.stringify(m)}\n`);
const send = (m: Msg) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
const update = (u: Msg) => send({ method: "session/update", params: { sessionId: "sess-1", update: u } });
const waiting = new Map<string | number, (m: Msg) => void>();
let cancelled = false;
let nextId = 100;

async function turn(id: number) {
  for (const step of script.turn ?? []) {
    if (cancelled) break;
    if (step.update) update(step.update);
    else if (step.write) writeFileSync(step.write.path, step.write.text);
    else if (step.sleep) await Bun.sleep(step.sleep);
    else if (step.hang) await new Promise(() => setInterval(() => {}, 1 << 30));
    else if (step.crash !== undefined) process.exit(step.crash);
    else if (step.sh) {
      const run = Bun.spawnSync(["sh", "-c", step.sh], { stdin: "ignore", stdout: "ignore", stderr: "pipe" });
      record({ sh: step.sh, code: run.exitCode, stderr: run.stderr.toString() });
    } else if (step.promptError) return send({ id, error: step.promptError });
    else if (step.permission || step.request) {
      const rid = `req-${nextId++}`;
      const answer = new Promise<Msg>((resolve) => waiting.set(rid, resolve));
      send({ id: rid, method: step.request ?? "session/request_permission", params: { sessionId: "sess-1", ...(step.permission ?? {}) } });
      const answered = await answer;
      record({ answer: answered });
      const picked = (step.permission?.options ?? []).find((o: Msg) => o.optionId === answered.result?.outcome?.optionId);
      if (String(picked?.kind).startsWith("allow"))
        for (const then of step.then ?? []) if (then.write) writeFileSync(then.write.path, then.write.text);
    }
  }
  send({
    id,
    result: { stopReason: cancelled ? "cancelled" : (script.stopReason ?? "end_turn"), ...(script.usage ? { usage: script.usage } : {}) },
  });
}

if (script.startDelayMs) await Bun.sleep(script.startDelayMs);
const decoder = new TextDecoder();
let buf = "";
for await (const chunk of Bun.stdin.stream()) {
  buf += decoder.decode(chunk, { stream: true });
  let i: number;
  while ((i = buf.indexOf("\n")) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (!line.trim()) continue;
    const m = JSON.parse(line) as Msg;
    record(m);
    if (m.method === undefined && waiting.has(m.id)) {
      waiting.get(m.id)!(m);
      waiting.delete(m.id);
    } else if (m.method === "initialize") {
      send({
        id: m.id,
        result: {
          protocolVersion: 1,
          agentCapabilities: {
            loadSession: script.loadSession ?? false,
            promptCapabilities: { image: script.images ?? false },
            ...(script.mcpCapabilities ? { mcpCapabilities: script.mcpCapabilities } : {}),
          },
          authMethods: [],
        },
      });
    } else if (m.method === "session/new" || m.method === "session/load") {
      if (script.authError) send({ id: m.id, error: { code: -32000, message: script.authError } });
      else {
        if (m.method === "session/load") for (const u of script.history ?? []) update(u);
        const models = script.models
          ? {
              models: {
                availableModels: script.models.map((modelId: string) => ({ modelId, name: script.modelNames?.[modelId] ?? modelId })),
                currentModelId: script.models[0],
              },
            }
          : {};
        const select = (id: string, values: string[]) => ({
          id,
          name: id,
          category: id,
          type: "select",
          currentValue: values[0],
          options: values.map((value) => ({ value, name: value })),
        });
        const configOptions = {
          configOptions: [
            ...(script.configModels ? [select("model", script.configModels)] : []),
            ...(script.modes ? [select("mode", script.modes)] : []),
          ],
        };
        send({ id: m.id, result: { sessionId: m.params?.sessionId ?? "sess-1", ...models, ...configOptions } });
      }
    } else if (m.method === "session/set_model" || m.method === "session/set_config_option") {
      send({ id: m.id, result: {} });
    } else if (m.method === "session/prompt") {
      turn(m.id);
    } else if (m.method === "session/cancel") {
      cancelled = true;
    } else if (m.id !== undefined) {
      send({ id: m.id, error: { code: -32601, message: `unknown method ${m.method}` } });
    }
  }
}
if (script.lingerMs) await Bun.sleep(script.lingerMs);
process.exit(0);
