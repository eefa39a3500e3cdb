// A "pushy model" for read-only tests: a loopback proxy in front of the model stub that adds a
// write tool to every model request, so the stub asks for a file write even when the CLI
// offered no such tool. Read-only mode must hold whatever the model asks.

const STRING = { type: "string" };

/** The write tool in each wire API's own shape; `name` is what the CLI calls its write tool. */
function writeTool(path: string, name: string): unknown | undefined {
  if (/\/messages$/.test(path))
    return { name, description: "Write a file", input_schema: { type: "object", properties: { file_path: STRING, content: STRING } } };
  if (/\/chat\/completions$/.test(path))
    return {
      type: "function",
      function: { name, description: "Write a file", parameters: { type: "object", properties: { path: STRING, content: STRING } } },
    };
  if (/\/responses$/.test(path))
    return {
      type: "function",
      name,
      description: "Write a file",
      parameters: { type: "object", properties: { path: STRING, content: STRING } },
    };
  return undefined;
}

export interface PushyProxy {
  url: string;
  /** How many requests got the extra tool. */
  injected: () => number;
  stop(): Promise<void>;
}

export function startPushyProxy(stubUrl: string, toolName: string): PushyProxy {
  let injected = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const path = url.pathname.replace(/\/+$/, "");
      let body: string | undefined = req.method === "GET" || req.method === "HEAD" ? undefined : await req.text();
      const tool = writeTool(path, toolName);
      if (body && tool) {
        try {
          const json = JSON.parse(body) as { tools?: unknown[] };
          const tools = Array.isArray(json.tools) ? json.tools : [];
          json.tools = [...tools, tool];
          body = JSON.stringify(json);
          injected++;
        } catch {}
      }
      const headers = new Headers(req.headers);
      headers.delete("host");
      headers.delete("content-length");
      return fetch(`${stubUrl}${url.pathname}${url.search}`, { method: req.method, headers, body, signal: req.signal });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    injected: () => injected,
    stop: () => server.stop(true),
  };
}
