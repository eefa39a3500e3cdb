import { expect, test } from "bun:test";
import { pluginApi as corePluginApi } from "../../src/core/agents/plugin-api.ts";
import { pluginApi } from "../../src/plugin.ts";

test("plugins get the same API in od's thread and in their own (a plugin's thread builds it from core)", () => {
  expect(corePluginApi).toEqual(pluginApi);
});
