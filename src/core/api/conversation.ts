import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OdError } from "../contract/errors.ts";
import { built, lazySchema } from "../contract/lazy.ts";
import type { Env } from "../contract/request.ts";
import { z } from "../contract/zod.ts";
import { odHome } from "../os/paths.ts";
import { safeJson } from "../protocols/parse-helpers.ts";

/** One part of a message, provider-neutral; each client maps it to its wire format. */
const Block = lazySchema(() =>
  z.discriminatedUnion("type", [
    z.object({ type: z.literal("text"), text: z.string() }),
    /** Anthropic's signature (or its redacted data) must go back unchanged with a tool round trip. */
    z.object({ type: z.literal("thinking"), text: z.string(), signature: z.string().optional(), redacted: z.string().optional() }),
    z.object({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown() }),
    z.object({ type: z.literal("tool_result"), id: z.string(), output: z.string(), isError: z.boolean() }),
  ]),
);
export type Block = z.infer<typeof Block>;

const Message = lazySchema(() => z.object({ role: z.enum(["user", "assistant"]), content: z.array(built(Block)) }));
export type Message = z.infer<typeof Message>;

const Session = lazySchema(() => z.object({ id: z.string(), cwd: z.string(), messages: z.array(built(Message)) }));
export type Session = z.infer<typeof Session>;

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Conversations live in `~/.open-design/api-sessions/<sessionId>.json` (mode 0600: they hold file contents). */
export function sessionsDir(env: Env): string {
  return join(odHome(env), "api-sessions");
}

export function newSession(cwd: string): Session {
  return { id: `api-${crypto.randomUUID()}`, cwd, messages: [] };
}

export function loadSession(env: Env, id: string): Session {
  if (!SESSION_ID.test(id))
    throw new OdError("INVALID_REQUEST", `Not an api session id: ${JSON.stringify(id)}`, "Pass the session id a previous api run printed.");
  let text: string;
  try {
    text = readFileSync(join(sessionsDir(env), `${id}.json`), "utf8");
  } catch {
    throw new OdError("INVALID_REQUEST", `No api session ${id} in ${sessionsDir(env)}`, "Start a new run without --resume.");
  }
  const parsed = Session.safeParse(safeJson(text));
  if (!parsed.success || parsed.data.id !== id)
    throw new OdError("INVALID_REQUEST", `The api session file for ${id} is damaged`, "Start a new run without --resume.");
  return parsed.data;
}

/** Written whole and renamed into place, so a crash never leaves half a conversation. */
export function saveSession(env: Env, session: Session): void {
  const dir = sessionsDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${session.id}.json`);
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, JSON.stringify(session), { mode: 0o600 });
  renameSync(tmp, file);
}

/** Appends a user message, merged into the last one when that is a user message too (a run cut short before the answer). */
export function addUser(messages: Message[], content: Block[]): void {
  const last = messages.at(-1);
  if (last?.role === "user") last.content.push(...content);
  else messages.push({ role: "user", content });
}
