// Loopback model server for live tests: speaks Anthropic Messages, OpenAI Chat Completions,
// OpenAI Responses and Gemini well enough for real agent CLIs, following a per-test Scenario.
//
//   const stub = await startModelStub();
//   stub.script({ kind: "tool-write", file: "hello.txt", content: "hi", finalText: "DONE" });
//   // point the CLI at stub.url (claude: ANTHROPIC_BASE_URL=stub.url; pi: baseUrl `${stub.url}/v1`)
//   await stub.stop();
import * as anthropic from "./stub/anthropic.ts";
import { failureResponse } from "./stub/failure.ts";
import * as gemini from "./stub/gemini.ts";
import * as openaiChat from "./stub/openai-chat.ts";
import * as responses from "./stub/openai-responses.ts";
import { readBody, redactHeaders, redactQuery } from "./stub/request.ts";
import { chunkText, decide, describe, httpFailure } from "./stub/scenario.ts";
import { json } from "./stub/stream.ts";
import type { ApiKind, ModelStub, ModelStubOptions, RecordedRequest, Scenario, StreamCtx, Turn } from "./stub/types.ts";

export { DEFAULT_AUTH_MESSAGE, DEFAULT_FINAL_TEXT, DEFAULT_TEXT, DEFAULT_THINKING } from "./stub/scenario.ts";
export type * from "./stub/types.ts";

const V1 = "(?:/v1)?";
const GEMINI = /^(?:\/v1beta|\/v1alpha|\/v1)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;
const ROUTES: [RegExp, ApiKind | "anthropic-count"][] = [
  [new RegExp(`^${V1}/messages/count_tokens$`), "anthropic-count"],
  [new RegExp(`^${V1}/messages$`), "anthropic"],
  [new RegExp(`^${V1}/chat/completions$`), "openai-chat"],
  [new RegExp(`^${V1}/responses$`), "openai-responses"],
];

/** GET /v1/models in the three shapes: OpenAI's `data` (Anthropic's too, with `has_more`) and Gemini's `models`. */
function modelList(ids: string[]) {
  return {
    object: "list",
    data: ids.map((id) => ({ id, object: "model", type: "model", display_name: id, created: 0, owned_by: "od-model-stub" })),
    has_more: false,
    first_id: ids[0] ?? null,
    last_id: ids.at(-1) ?? null,
    models: ids.map((id) => ({ name: `models/${id}`, displayName: id })),
  };
}

/** Start the stub on 127.0.0.1 (any free port unless opts.port). */
export async function startModelStub(opts: ModelStubOptions = {}): Promise<ModelStub> {
  let scenario: Scenario = opts.scenario ?? { kind: "chat" };
  const requests: RecordedRequest[] = [];
  const live = new Set<() => void>();
  let served = 0; // model requests answered under the current scenario (http-error counts its failures with it)

  const makeCtx = (signal: AbortSignal): StreamCtx => {
    let done = false;
    let resolve = (): void => undefined;
    const promise = new Promise<void>((r) => (resolve = r));
    const finish = (): void => {
      if (done) return;
      done = true;
      live.delete(finish);
      resolve();
    };
    live.add(finish);
    signal.addEventListener("abort", finish, { once: true });
    return { done: promise, isDone: () => done, finish };
  };

  const answer = (rec: RecordedRequest, turn: Turn, bodyText: string, req: Request) => {
    Object.assign(rec, {
      model: turn.model,
      stream: turn.stream,
      effort: turn.effort,
      reasoning: turn.reasoning,
      thinking: turn.thinking,
      lastUserText: turn.lastUserText,
      toolNames: turn.tools.map((t) => t.name),
      hasToolResult: turn.hasToolResult,
    });
    served += 1;
    const reply = decide(scenario, turn, bodyText);
    if (rec.api === "gemini" && reply.kind === "text") {
      const forced = gemini.jsonModeText(rec.body);
      if (forced) reply.chunks = chunkText(forced);
    }
    rec.answered = describe(reply);
    return { reply, ctx: makeCtx(req.signal) };
  };

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const { body, text } = hasBody ? await readBody(req) : { body: undefined, text: "" };
    const rec: RecordedRequest = {
      method: req.method,
      path,
      query: redactQuery(url.searchParams),
      headers: redactHeaders(req.headers),
      body,
      api: "other",
      toolNames: [],
      at: Date.now(),
    };
    requests.push(rec);

    const g = req.method === "POST" ? GEMINI.exec(path) : null;
    // An http-error scenario answers model requests (not token counts or model lists) with its failure.
    const modelApi = g ? "gemini" : req.method === "POST" ? ROUTES.find(([re]) => re.test(path))?.[1] : undefined;
    const failure = modelApi && modelApi !== "anthropic-count" ? httpFailure(scenario, served) : undefined;
    if (failure) {
      served += 1;
      rec.api = modelApi as ApiKind;
      rec.answered = `http-${failure.status}`;
      return failureResponse(rec.api, failure);
    }
    if (g) {
      rec.api = "gemini";
      if (g[2] === "countTokens") return gemini.countTokens(body);
      const turn = gemini.parse(body, g[1] ?? "stub-model", g[2] ?? "");
      const { reply, ctx } = answer(rec, turn, text, req);
      return gemini.render(reply, turn, ctx, url.searchParams.get("alt") === "sse");
    }
    const route = req.method === "POST" ? ROUTES.find(([re]) => re.test(path))?.[1] : undefined;
    if (route === "anthropic-count") {
      rec.api = "anthropic";
      return anthropic.countTokens(body);
    }
    if (route) {
      rec.api = route;
      const api = route === "anthropic" ? anthropic : route === "openai-chat" ? openaiChat : responses;
      const turn = api.parse(body);
      const { reply, ctx } = answer(rec, turn, text, req);
      return api.render(reply, turn, ctx);
    }
    if (req.method === "GET" && /^(?:\/v1|\/v1beta)?\/models$/.test(path)) return json(modelList(opts.models ?? ["stub-model"]));
    if ((req.method === "GET" || req.method === "HEAD") && path === "/") {
      return req.method === "HEAD" ? new Response(null, { status: 200 }) : json({ ok: true, stub: "od-model-stub" });
    }
    rec.answered = "404";
    return json({ error: { type: "not_found", message: `model stub: no route for ${req.method} ${path}` } }, 404);
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: opts.port ?? 0,
    idleTimeout: 0,
    fetch: handle,
    error: (err) => json({ error: { type: "stub_error", message: String(err) } }, 500),
  });
  const port = server.port ?? 0;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    script(s: Scenario): void {
      scenario = s;
      served = 0;
    },
    async stop(): Promise<void> {
      const streams = [...live];
      for (const finish of streams) finish();
      if (streams.length) await Bun.sleep(20); // let ended streams close cleanly before force-closing
      await server.stop(true);
    },
  };
}
