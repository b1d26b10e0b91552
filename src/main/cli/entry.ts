import { runCli } from './main';

// The built CLI's entry point (out/main/cli.js), started by bin/atrium.js.

// `atrium session show ID | head`: the reader went away; stop quietly as other Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
void runCli(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`atrium: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
