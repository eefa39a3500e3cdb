// zod itself, for contract/zod.ts to require on first use: a module of its own, so that the copy
// od loads is the one every static `import "zod"` (the ACP and MCP SDKs) gets.
export { z } from "zod";
