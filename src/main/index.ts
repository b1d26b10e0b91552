import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app } from 'electron';
import { startDesktop } from './app';

// Electron main entry (out/main/index.js). Everything substantial lives in ./core (the engine).
const outDir = path.dirname(fileURLToPath(import.meta.url));
startDesktop(outDir).catch((error: unknown) => {
  console.error('[atrium] failed to start:', error);
  app.exit(1);
});
