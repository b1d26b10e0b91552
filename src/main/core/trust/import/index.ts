import type {
  TrustChange,
  TrustDecisionState,
  TrustImportSource,
  TrustImportSourceReport,
  TrustImportSuggestion,
} from '../../../../shared/contract';
import { isExistingDirectory } from '../../workspaces/identity';
import { resolveFolder, trustKey } from '../../workspaces/paths';
import { missingFolderRefusal, trustRefusal } from '../policy';
import type { TrustService } from '../service';
import { readClaudeTrust } from './claude';
import { readCodexTrust } from './codex';
import { readGeminiTrust } from './gemini';
import type { ForeignTrustStore } from './types';

const READERS: Record<TrustImportSource, (homeDir: string) => Promise<ForeignTrustStore>> = {
  claude: readClaudeTrust,
  codex: readCodexTrust,
  gemini: readGeminiTrust,
};

/**
 * Import, never silently: reads the decisions Claude Code, Codex and Gemini
 * CLI store under the engine's home directory and returns them as suggestions next to Atrium's
 * current status. Records nothing and never writes the other tools' files. Each suggestion is
 * resolved like `trust.set` would: canonical folder → its trust root (a worktree → its main checkout).
 */
export async function importSuggestions(
  trust: TrustService,
  homeDir: string,
  from?: TrustImportSource,
): Promise<{ sources: TrustImportSourceReport[]; suggestions: TrustImportSuggestion[] }> {
  const chosen = from ? [from] : (Object.keys(READERS) as TrustImportSource[]);
  const stores = await Promise.all(chosen.map((s) => READERS[s](homeDir)));
  const sources: TrustImportSourceReport[] = [];
  const suggestions: TrustImportSuggestion[] = [];
  const seen = new Set<string>();
  for (const store of stores) {
    const warnings = [...store.warnings];
    for (const d of store.decisions) {
      let target: string;
      try {
        target = resolveFolder(d.folder).trustRoot;
      } catch (error) {
        warnings.push({ path: store.file, line: null, message: `${d.sourcePath}: ${(error as Error).message}`, fix: null });
        continue;
      }
      const key = `${store.from}\0${trustKey(target)}\0${d.state}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const own = trust.decisionFor(target);
      suggestions.push({
        from: store.from,
        path: target,
        sourcePath: d.sourcePath,
        state: d.state,
        sourceValue: d.sourceValue,
        exists: isExistingDirectory(target),
        current: trust.workspaceTrust(target),
        alreadyRecorded: own?.state === d.state,
        refused: d.state === 'trusted' ? (trustRefusal(trustKey(target), trust.home) ?? missingFolderRefusal(trustKey(target))) : null,
      });
    }
    sources.push({ from: store.from, file: store.file, found: store.found, warnings });
  }
  suggestions.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.from < b.from ? -1 : 1));
  return { sources, suggestions };
}

/**
 * Records the suggestions the user confirmed, in one transaction (one `trustChanged` event), with
 * source `import:<tool>`. Paths are resolved to their trust roots like `trust.set`.
 * @throws AtriumError TRUST_REFUSED when any confirmed entry would trust `/` or the home folder
 *   (nothing is recorded then) | PATH_NOT_ABSOLUTE | NOT_A_DIRECTORY | PATH_UNREADABLE
 */
export function importConfirm(
  trust: TrustService,
  decisions: ReadonlyArray<{ path: string; state: TrustDecisionState; from: TrustImportSource }>,
): { recorded: TrustChange[]; unchanged: string[] } {
  const resolved = decisions.map((d) => ({ path: trustKey(resolveFolder(d.path).trustRoot), state: d.state, source: `import:${d.from}` as const }));
  const unchanged = resolved.filter((r) => trust.decisionFor(r.path)?.state === r.state).map((r) => r.path);
  const recorded = trust.recordMany(resolved);
  return { recorded, unchanged };
}
