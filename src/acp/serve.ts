import { agent, type Stream } from "@agentclientprotocol/sdk";
import { type AcpOptions, OdAcpAgent } from "./agent.ts";
import { withOdErrors } from "./errors.ts";

/**
 * od as an ACP agent on `stream`: the SDK's agent side, each method handed to `OdAcpAgent`, every
 * error reaching the client with od's code and hint. Returns when the client has gone (or
 * `opts.signal` ended the connection) and every run it started has ended.
 */
export async function serveAcp(stream: Stream, opts: AcpOptions): Promise<void> {
  const od = new OdAcpAgent(opts);
  const app = agent({ name: "od" })
    .onRequest(
      "initialize",
      withOdErrors(async () => od.initialize()),
    )
    .onRequest(
      "session/new",
      withOdErrors(async ({ params, client }) => od.newSession(params, client)),
    )
    .onRequest(
      "session/load",
      withOdErrors(async ({ params, client }) => od.loadSession(params, client)),
    )
    .onRequest(
      "session/set_mode",
      withOdErrors(async ({ params }) => {
        od.setMode(params.sessionId, params.modeId);
        return {};
      }),
    )
    .onRequest(
      "session/set_config_option",
      withOdErrors(async ({ params, client }) => ({
        configOptions: await od.setConfigOption(params.sessionId, params.configId, params.value, client),
      })),
    )
    .onRequest(
      "session/prompt",
      withOdErrors(async ({ params, client }) => od.prompt(params, client)),
    )
    .onNotification("session/cancel", ({ params }) => od.cancel(params.sessionId));
  const connection = app.connect(stream);
  opts.signal?.addEventListener("abort", () => connection.close(), { once: true });
  await connection.closed;
  await od.close();
}
