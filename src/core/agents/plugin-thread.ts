import { existsSync } from "node:fs";

let url: string | undefined;

/** Where a plugin thread's code is: plugin-worker.ts beside this file (from source), else the copy compiled into the binary. */
function threadUrl(): string {
  if (url) return url;
  const file = new URL("./plugin-worker.ts", import.meta.url);
  if (file.protocol === "file:" && existsSync(Bun.fileURLToPath(file))) return (url = file.href);
  const { code } = require("./plugin-worker-code.ts") as { code: string };
  return (url = URL.createObjectURL(new Blob([code], { type: "text/javascript" })));
}

/** A new thread for a plugin's code (plugin-worker.ts): what it does there cannot end or stall od's thread. */
export function startPluginThread(): Worker {
  return new Worker(threadUrl());
}
