import { runCli } from './main';

// The built CLI's entry point (out/main/cli.js), started by bin/atrium.js.
void runCli(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`atrium: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
