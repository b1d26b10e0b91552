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
        conflict: null,
      });
    }
    sources.push({ from: store.from, file: store.file, found: store.found, warnings });
  }
  markConflicts(suggestions);
  suggestions.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.from < b.from ? -1 : 1));
  return { sources, suggestions };
}

/**
 * Records the suggestions the user confirmed, in one transaction (one `trustChanged` event), with
 * source `import:<tool>`. Paths are resolved to their trust roots like `trust.set`. When confirmed
 * decisions disagree about one folder, only `untrusted` is recorded (the order they come in does
 * not matter, so importing twice never flips a folder).
 * @throws AtriumError TRUST_REFUSED when any confirmed entry would trust `/` or the home folder
 *   (nothing is recorded then) | PATH_NOT_ABSOLUTE | NOT_A_DIRECTORY | PATH_UNREADABLE
 */
export function importConfirm(
  trust: TrustService,
  decisions: ReadonlyArray<{ path: string; state: TrustDecisionState; from: TrustImportSource }>,
): { recorded: TrustChange[]; unchanged: string[] } {
  const all = decisions.map((d) => ({ path: trustKey(resolveFolder(d.path).trustRoot), state: d.state, source: `import:${d.from}` as const }));
  // confirmed decisions that disagree about one folder resolve as the suggestions say: untrusted wins
  const untrusted = new Set(all.filter((d) => d.state === 'untrusted').map((d) => d.path));
  const resolved = all.filter((d) => d.state === 'untrusted' || !untrusted.has(d.path));
  const unchanged = resolved.filter((r) => trust.decisionFor(r.path)?.state === r.state).map((r) => r.path);
  const recorded = trust.recordMany(resolved);
  return { recorded, unchanged };
}

const TOOL_NAME: Record<TrustImportSource, string> = { claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI' };

/**
 * Tools that disagree about one folder (one trusts it, another marks it untrusted) must not make
 * the import flip it on every run: untrusted wins, the safer reading. Each side gets the
 * `conflict` sentence; every trusted side is refused with it, so "import all" records the
 * untrusted decision once and then has nothing left to change.
 */
function markConflicts(suggestions: TrustImportSuggestion[]): void {
  const byPath = new Map<string, TrustImportSuggestion[]>();
  for (const s of suggestions) byPath.set(trustKey(s.path), [...(byPath.get(trustKey(s.path)) ?? []), s]);
  for (const group of byPath.values()) {
    const trusting = group.filter((s) => s.state === 'trusted');
    const distrusting = group.filter((s) => s.state === 'untrusted');
    if (trusting.length === 0 || distrusting.length === 0) continue;
    const says = (list: TrustImportSuggestion[], verb: string) => list.map((s) => `${TOOL_NAME[s.from]} ${verb} (${s.sourceValue})`).join(' and ');
    const disagree = `Tools disagree about this folder: ${says(trusting, 'trusts it')}, ${says(distrusting, 'marks it untrusted')}.`;
    for (const s of distrusting) s.conflict = `${disagree} The import records untrusted, the safer decision.`;
    for (const s of trusting) {
      s.conflict = `${disagree} Untrusted wins on import; trust the folder yourself if you mean to.`;
      s.refused ??= s.conflict;
    }
  }
}
