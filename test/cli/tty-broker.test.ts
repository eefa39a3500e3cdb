import { expect, test } from "bun:test";
import { lineBroker } from "../../src/cli/tty-broker.ts";

test("the terminal broker asks once and only y/yes allows", async () => {
  const answers: Array<[string[], "allow" | "deny"]> = [
    [["y\n"], "allow"],
    [["ye", "s\n"], "allow"],
    [["\n"], "deny"],
    [["no\n"], "deny"],
    [["yes please\n"], "deny"],
  ];
  for (const [chunks, want] of answers) {
    const written: string[] = [];
    const broker = lineBroker(
      async function* () {
        yield* chunks;
      },
      { write: (s: string) => written.push(s) },
    );
    const got = await broker({ id: "1", tool: "Bash", kind: "execute", detail: "rm -rf build" }, new AbortController().signal);
    expect({ chunks, got }).toEqual({ chunks, got: want });
    expect(written.join("")).toContain("Bash: the agent wants to run");
  }
});
