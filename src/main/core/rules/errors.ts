import { AtriumError } from '../../../shared/errors';

/**
 * A rule reference no longer matches the current catalog (id, sha256, relativePath or source
 * differ, or the file is gone): the session must fail closed (seed §4.5).
 * Message: `Project rule provenance mismatch: <relativePath>`.
 */
export class RuleProvenanceMismatch extends AtriumError {
  constructor(readonly relativePath: string) {
    super('RULE_PROVENANCE_MISMATCH', `Project rule provenance mismatch: ${relativePath}. The rule changed since the session loaded it; start a new session to pick up the current version.`);
    this.name = 'RuleProvenanceMismatch';
  }
}

/** A start folder (`fromDir`) outside the catalog root (seed §4.5 staticRules). */
export class RuleSourceOutsideRoot extends AtriumError {
  constructor(readonly fromDir: string, readonly root: string) {
    super('INVALID_PARAMS', `Project instruction source is outside the catalog root: ${fromDir} is not inside ${root}. Pick a folder inside the workspace.`);
    this.name = 'RuleSourceOutsideRoot';
  }
}

/**
 * A start folder ("Session starts in", `rules explain --from`) that does not exist in the workspace,
 * or is a file. Code `PATH_NOT_FOUND` or `NOT_A_DIRECTORY`; `from` is the value as typed, `absolute`
 * where it was looked for. Without this check an explanation for a made-up folder looks valid.
 */
export class RuleStartFolderUnusable extends AtriumError {
  constructor(readonly from: string, readonly absolute: string, readonly reason: 'missing' | 'file') {
    super(
      reason === 'missing' ? 'PATH_NOT_FOUND' : 'NOT_A_DIRECTORY',
      reason === 'missing'
        ? `The start folder "${from}" does not exist in this workspace (looked for ${absolute}). Type a folder that exists, relative to the workspace, or leave it empty to start in the workspace folder.`
        : `The start folder "${from}" is a file, not a folder (${absolute}). Type the folder the session starts in, or leave it empty to start in the workspace folder.`,
    );
    this.name = 'RuleStartFolderUnusable';
  }
}
