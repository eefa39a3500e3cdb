// The live lane: the compiled dist/od against the REAL agent CLIs (installed from npm, pinned in
// clis.ts), offline, each pointed at our loopback model stub. Runs only with OD_LIVE=1
// (`npm run test:live`). Every test gets a fresh HOME, work dir and stub; the scenarios are in
// matrix.ts; a CLI x scenario table is printed at the end.
import { afterAll, describe, test } from "bun:test";
import { CLIS } from "./clis.ts";
import { fixture, formatRows, prepareLane, type Row } from "./lane.ts";
import { matrix, type ScenarioFn } from "./matrix.ts";
import { stalls } from "./od.ts";
import { authority } from "./scenarios-authority.ts";
import { clineScenarios } from "./scenarios-cline.ts";
import { piScenarios } from "./scenarios-pi.ts";

const LIVE = process.env.OD_LIVE === "1";
/** Two attempts of a scenario (od's --timeout is 40 s) fit, with room for its runs' starts. */
const TIMEOUT = 150_000;
const lane = LIVE ? await prepareLane() : undefined;
const rows: Row[] = [];

/**
 * One CLI x scenario: a fresh fixture, the body, a row in the table whatever happens. A third-party
 * CLI that stalls (od ended it at its --timeout) gets one more try with a fresh fixture, said in
 * the row and on stderr with what the CLI was doing; od itself hanging (the watchdog) never does.
 */
const scenario: ScenarioFn = (cli, name, initial, body) => {
  const cannot = cli.cannot?.[name];
  if (cannot) {
    rows.push({ cli: cli.id, scenario: name, result: "skipped", note: cannot });
    test.skip(`${name} (${cannot})`, () => {});
    return;
  }
  test(
    name,
    async () => {
      const t0 = performance.now();
      const row: Row = { cli: cli.id, scenario: name, result: "failed", note: "" };
      rows.push(row);
      const bin = lane?.bins.get(cli.id);
      let requests = "";
      const attempt = async () => {
        if (lane?.error) throw new Error(`lane not ready: ${lane.error}`);
        if (!bin?.binDir) throw new Error(`install failed: ${bin?.error ?? "unknown"}`);
        const fx = await fixture(cli, bin.binDir, initial);
        try {
          return (await body(fx)) ?? "";
        } finally {
          requests = fx.stub.requests.map((r) => `${r.method} ${r.path} ${r.answered ?? "unanswered"}`).join(", ");
          await fx.dispose();
        }
      };
      try {
        const before = stalls.length;
        try {
          row.note = await attempt();
        } catch (err) {
          const stall = stalls[before];
          if (stall === undefined) throw err;
          console.error(
            `live lane: ${cli.id} ${name} stalled and od ended it; one more try. Model requests: ${requests || "none"}\n${stall}`,
          );
          row.note = `2nd try (${stall.split("\n")[0]}): ${await attempt()}`;
        }
        row.result = "passed";
      } catch (err) {
        row.note = String((err as Error).message ?? err)
          .replace(/\s+/g, " ")
          .slice(0, 160);
        throw err;
      } finally {
        row.ms = performance.now() - t0;
      }
    },
    TIMEOUT,
  );
};

describe.skipIf(!LIVE)("live lane (runs only with OD_LIVE=1, i.e. `npm run test:live`; needs npm and loopback)", () => {
  for (const cli of CLIS) {
    if (lane && !lane.error && !lane.adapters.includes(cli.id)) {
      rows.push({ cli: cli.id, scenario: "*", result: "skipped", note: `od has no "${cli.id}" adapter yet` });
      test.skip(`${cli.id}: no od adapter`, () => {});
      continue;
    }
    describe(`${cli.id} ${cli.pkg}@${cli.version}`, () => {
      matrix(cli, scenario);
      authority(cli, scenario);
      piScenarios(cli, scenario);
      clineScenarios(cli, scenario);
    });
  }
});

afterAll(() => {
  if (!lane) return;
  for (const note of lane.notes) console.log(`live lane: ${note}`);
  console.log(formatRows(rows, performance.now() - lane.started));
});
