import { defineAcpAgent } from "../src/plugin.ts";

/**
 * Auggie, Augment Code's CLI, over the Agent Client Protocol: `auggie --acp` ("Enable ACP mode").
 * It cannot log in over ACP (session/new answers "Authentication required: … run `auggie
 * login`"), and it talks only to Augment's own backend, so nothing past the handshake could be
 * checked here: no resume (loadSession is advertised, untested). Its own flags hold no read-only
 * (`--ask` could not be shown to hold in ACP mode: the session still reports mode "default") and no
 * edit (nothing shows that Auggie asks before it runs a command over ACP): od offers those modes
 * only where its kernel sandbox holds them, and full everywhere.
 */
export default defineAcpAgent({
  id: "auggie",
  name: "Auggie",
  login: "run `auggie login` (or set AUGMENT_SESSION_AUTH)",
  homepage: "https://docs.augmentcode.com/cli/overview",
  install: "npm install -g @augmentcode/auggie",
  bin: "auggie", // `auggie --version` prints "0.36.0 (commit 7c61e5bb)".
  state: [
    ".augment/", // .auggie.json (observed, 0.36.0 up to its login), sessions and settings: the default of --augment-cache-dir ("Defaults to ~/.augment", in its bundle)
  ],
  detect: { configDir: ".augment", auth: { envKeys: ["AUGMENT_SESSION_AUTH"] } },
  capabilities: { resume: false, images: true, readOnly: false, edit: false },
  argv: ["--acp"],
});
