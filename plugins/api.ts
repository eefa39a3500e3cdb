import { defineAdapter } from "../src/plugin.ts";

/**
 * od's own minimal agent loop (src/core/api), for users with no agent CLI: a
 * model behind the Anthropic Messages API or any OpenAI-compatible Chat
 * Completions endpoint (OpenAI, OpenRouter, Ollama, LM Studio, vLLM), with
 * three tools od implements itself, Read, Write and Edit, rooted at the cwd.
 * There is no executable: the pipeline runs the loop in process and hands it
 * the run's mode, model and session typed, not as flags, so invoke gives only
 * the prompt (its empty argv is what runs show after the `bin` label). The rest
 * of the configuration is the environment:
 * OD_API_PROVIDER (anthropic | openai), OD_API_BASE_URL, OD_API_MODEL, and a key
 * in OD_API_KEY, ANTHROPIC_API_KEY or OPENAI_API_KEY.
 */
export default defineAdapter({
  id: "api",
  name: "API (od's own loop)",
  install:
    "set ANTHROPIC_API_KEY or OPENAI_API_KEY, or OD_API_BASE_URL for a local OpenAI-compatible server (e.g. http://localhost:11434/v1)",
  login: "set ANTHROPIC_API_KEY, OPENAI_API_KEY or OD_API_KEY",
  bin: "od:api",
  // Configured = one of these set; there is nothing to install, so `od agents` lists it as missing until then.
  detect: { auth: { envKeys: ["OD_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OD_API_BASE_URL"] } },
  // Which models exist depends on the endpoint: detection asks it for its list (src/core/api/endpoint.ts); `default` is OD_API_MODEL, else the provider's default
  // (or the first model a local server lists).
  models: [],
  efforts: [],
  // read-only offers the Read tool alone; full adds nothing over edit (there is no shell to allow).
  capabilities: { streaming: true, resume: true, readOnly: true, skills: "prompt" },
  prompt: { via: "stdin" },
  invoke: (ctx) => ({ argv: [], stdin: ctx.prompt }),
  protocol: { kind: "loop", loop: "api" },
});
