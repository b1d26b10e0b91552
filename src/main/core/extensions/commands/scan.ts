import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { readMarkdown } from '../read';
import { DOC_NAMES, type ScanRoot } from '../roots';
import type { CommandRecord } from '../types';
import { findMarkdown } from '../walk';
import { commandFromFile } from './parse';

/** Commands of one root: `*.md` at any depth (seed §11); README-like files are skipped. Never throws. */
export async function scanCommands(root: ScanRoot, shown: (abs: string) => string): Promise<{ commands: CommandRecord[]; warnings: ExtensionWarning[] }> {
  const found = await findMarkdown(root.dir, shown, { skip: (n) => DOC_NAMES.test(n) });
  const commands: CommandRecord[] = [];
  for (const f of found.files) {
    const name = f.rel.replace(/\.md$/i, '');
    commands.push(commandFromFile(await readMarkdown(f.absolute, shown(f.absolute)), name, root, f.absolute, shown(f.absolute)));
  }
  return { commands, warnings: found.warnings };
}

/** Commands from explicit files (a plugin manifest's `"commands": ["./x.md"]`). */
export async function commandsFromFiles(files: readonly string[], root: ScanRoot, shown: (abs: string) => string): Promise<CommandRecord[]> {
  const out: CommandRecord[] = [];
  for (const abs of files) {
    const name = abs.split(/[\\/]/).pop()!.replace(/\.md$/i, '');
    out.push(commandFromFile(await readMarkdown(abs, shown(abs)), name, root, abs, shown(abs)));
  }
  return out;
}
