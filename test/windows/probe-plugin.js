/**
 * The Wine lane's adapter: an argv-only "CLI" named `probe` whose executable is
 * the rawargs probe (a .cmd shim or an .exe, found through PATH and PATHEXT).
 * It always passes an empty argument, so empty arguments are checked too, and
 * with $PROBE_COMSPEC it hands od another command interpreter, through the
 * adapter's env (Wine ignores a ComSpec set on the Unix side).
 */
export default (od) =>
  od.defineAdapter({
    id: "probe",
    name: "Wine Probe",
    install: "built by test/windows/lane.sh",
    bin: "probe",
    capabilities: { streaming: false, resume: false, readOnly: false },
    prompt: { via: "argv", maxPromptArgBytes: 30000 },
    invoke: (ctx) => ({
      argv: ["exec", "", "--auto", ctx.prompt],
      env: process.env.PROBE_COMSPEC ? { ComSpec: process.env.PROBE_COMSPEC } : undefined,
    }),
    protocol: od.defineLinesProtocol({
      createState: () => ({}),
      parse: (_record, _state, line) => [{ type: "text.delta", id: "probe", text: line }],
    }),
  });
