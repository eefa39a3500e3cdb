// cli/out.ts: a command's output through console.log / console.error, the streams only when needed.
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { stderr, stdout } from "../../src/cli/out.ts";

const spies: Array<{ mockRestore(): void }> = [];
afterEach(() => {
  for (const s of spies.splice(0)) s.mockRestore();
});

describe("a command's stdout and stderr (cli/out.ts)", () => {
  test("a text ending in a newline goes through console.log / console.error as it is, the newline theirs", () => {
    const log = spyOn(console, "log").mockImplementation(() => {});
    const error = spyOn(console, "error").mockImplementation(() => {});
    spies.push(log, error);
    stdout.write("agent  status\nclaude ready\n");
    stdout.write("100%% %s {}\n"); // no format is applied to a single string
    stderr.write("claude: logged out\n\n");
    expect(log.mock.calls).toEqual([["agent  status\nclaude ready"], ["100%% %s {}"]]);
    expect(error.mock.calls).toEqual([["claude: logged out\n"]]);
  });

  test("a partial line (a progress line) goes to the stream, which is built then", () => {
    const write = spyOn(process.stderr, "write").mockImplementation(() => true);
    const error = spyOn(console, "error").mockImplementation(() => {});
    spies.push(write, error);
    stderr.write("probing 42 agents…\r");
    expect(write.mock.calls).toEqual([["probing 42 agents…\r"]]);
    expect(error).not.toHaveBeenCalled();
    expect(stderr.isTTY).toBe(process.stderr.isTTY);
  });
});
