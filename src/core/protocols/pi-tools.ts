/** pi's built-in tools (its `toolName`s; extensions add others, which are `other`): kind and the argument naming files. */
import { type ToolDescriber, toolTable } from "./tool-facts.ts";

export const piTools: ToolDescriber = toolTable({
  read: { kind: "read", paths: ["path"] },
  write: { kind: "edit", paths: ["path"] },
  edit: { kind: "edit", paths: ["path"] },
  bash: { kind: "execute" },
  grep: { kind: "search", paths: ["path"] },
  find: { kind: "search", paths: ["path"] },
  ls: { kind: "search", paths: ["path"] },
});
