import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { readMarkdown } from '../read';
import { DOC_NAMES, type ScanRoot } from '../roots';
import type { CommandRecord } from '../types';
import { findMarkdown } from '../walk';
import { commandFromFile } from './parse';
import { directFileAccess, type FileReader } from '../../files/scan';

/** Commands of one root: `*.md` at any depth (seed §11); README-like files are skipped. Never throws. */
export async function scanCommands(root: ScanRoot, shown: (abs: string) => string, files: FileReader = directFileAccess): Promise<{ commands: CommandRecord[]; warnings: ExtensionWarning[] }> {
  const found = await findMarkdown(root.dir, shown, { skip: (n) => DOC_NAMES.test(n) });
  const commands: CommandRecord[] = [];
  for (const f of found.files) {
    const name = f.rel.replace(/\.md$/i, '');
    commands.push(commandFromFile(await readMarkdown(f.absolute, shown(f.absolute), undefined, files), name, root, f.absolute, shown(f.absolute)));
  }
  return { commands, warnings: found.warnings };
}

/** Commands from explicit files (a plugin manifest's `"commands": ["./x.md"]`). */
export async function commandsFromFiles(paths: readonly string[], root: ScanRoot, shown: (abs: string) => string, files: FileReader = directFileAccess): Promise<CommandRecord[]> {
  const out: CommandRecord[] = [];
  for (const abs of paths) {
    const name = abs.split(/[\\/]/).pop()!.replace(/\.md$/i, '');
    out.push(commandFromFile(await readMarkdown(abs, shown(abs), undefined, files), name, root, abs, shown(abs)));
  }
  return out;
}
