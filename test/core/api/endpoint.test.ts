// The api loop knows its own server: the endpoint's model list, and an endpoint that cannot be reached said at once.
import { afterAll, describe, expect, test } from "bun:test";
import { detectCached } from "../../../src/core/agents/detect-cache.ts";
import { listModels } from "../../../src/core/agents/models.ts";
import { resolveConfig } from "../../../src/core/api/config.ts";
import { endpointModels } from "../../../src/core/api/endpoint.ts";
import { OdError } from "../../../src/core/contract/errors.ts";
import { finished, ofType, tmpdir } from "../../helpers.ts";
import { startModelStub } from "../../live/model-stub.ts";
import { PROVIDERS, registry, runApi, stubEnv } from "./harness.ts";

const api = registry.get("api")!.adapter;

const FOUR = ["qwen3-coder", "llama3.3", "gpt-oss:20b", "deepseek-r1"];
const stub = await startModelStub({ models: FOUR });
afterAll(() => stub.stop());

/** A port nothing listens on: a server started, then stopped. */
async function closedPort(): Promise<number> {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = s.port!;
  await s.stop(true);
  return port;
}

const thrown = async (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e) => e as OdError,
  );

describe("the endpoint's own model list", () => {
  for (const provider of PROVIDERS)
    test(`${provider}: GET /v1/models with the provider's headers, every id`, async () => {
      await using tmp = tmpdir();
      const env = stubEnv(stub, provider, tmp.path);
      const before = stub.requests.length;
      const listed = await endpointModels(resolveConfig({ mode: "edit" }, env));
      expect(listed.models).toEqual(FOUR);
      const req = stub.requests.slice(before).find((r) => r.method === "GET")!;
      expect(req.path).toBe("/v1/models");
      if (provider === "anthropic")
        expect(req.headers).toMatchObject({ "anthropic-version": "2023-06-01", "x-api-key": expect.any(String) });
      else expect(req.headers.authorization).toBeDefined();
    });

  test("od models, the server's list and the library's: the endpoint's models, cached", async () => {
    await using tmp = tmpdir();
    const env = stubEnv(stub, "openai", tmp.path, { OD_API_MODEL: "" });
    const list = await listModels(registry, "api", { env });
    expect(list).toMatchObject({ models: ["default", ...FOUR], source: "catalog", exhaustive: false });
    expect(list.from).toContain(`${stub.url}/v1/models`);
    const asked = stub.requests.filter((r) => r.method === "GET").length;
    expect(await listModels(registry, "api", { env })).toEqual(list);
    expect(stub.requests.filter((r) => r.method === "GET").length).toBe(asked); // from the cache
  });

  test("an endpoint nobody listens at: ENDPOINT_UNREACHABLE at once, with its URL and the reason", async () => {
    await using tmp = tmpdir();
    const port = await closedPort();
    const env = { ...stubEnv(stub, "openai", tmp.path), OD_API_BASE_URL: `http://127.0.0.1:${port}/v1` };
    const started = performance.now();
    const err = await thrown(endpointModels(resolveConfig({ mode: "edit" }, env)));
    expect(performance.now() - started).toBeLessThan(3000);
    // (No toMatchObject with a matcher on an Error: bun 1.4.5 then replaces its message.)
    expect(err).toBeInstanceOf(OdError);
    expect(err?.code).toBe("ENDPOINT_UNREACHABLE");
    expect(err?.message).toBe(`Cannot reach http://127.0.0.1:${port}/v1/models: connection refused`);
    expect(err?.hint).toContain("OD_API_BASE_URL");
  });

  test("detection asks the endpoint: ready with its models; unreachable is not ready, says why, and is not cached", async () => {
    await using tmp = tmpdir();
    const up = stubEnv(stub, "openai", tmp.path);
    const [ready] = (await detectCached([api], { env: up, refresh: true })).detections;
    expect(ready).toMatchObject({ status: "ready", models: FOUR, modelSource: "catalog" });
    expect((await detectCached([api], { env: up })).cached).toEqual(["api"]);
    const port = await closedPort();
    const down = { ...up, OD_API_BASE_URL: `http://127.0.0.1:${port}/v1` };
    const [gone] = (await detectCached([api], { env: down, refresh: true })).detections;
    expect(gone?.status).not.toBe("ready");
    expect(gone?.problems[0]).toMatchObject({ code: "ENDPOINT_UNREACHABLE", message: expect.stringContaining(`127.0.0.1:${port}`) });
    expect((await detectCached([api], { env: down })).cached).toEqual([]);
  });

  test("a run against an endpoint nobody listens at fails at once (no retries), model or not", async () => {
    await using tmp = tmpdir();
    const port = await closedPort();
    for (const model of [undefined, "qwen3-coder"]) {
      const env = { ...stubEnv(stub, "openai", tmp.path, { OD_API_MODEL: "" }), OD_API_BASE_URL: `http://127.0.0.1:${port}/v1` };
      const started = performance.now();
      const events = await runApi({ cwd: tmp.path, model }, env);
      expect(performance.now() - started).toBeLessThan(3000);
      expect(finished(events).status).toBe("failed");
      expect(ofType(events, "status").filter((s) => s.label === "retrying")).toEqual([]);
      expect(ofType(events, "error")[0]).toMatchObject({ code: "ENDPOINT_UNREACHABLE", retryable: false });
    }
  });
});
