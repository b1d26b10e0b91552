import { AtriumError } from '../../../shared/errors';

/**
 * A rule reference no longer matches the current catalog (id, sha256, relativePath or source
 * differ, or the file is gone): the session must fail closed (issue 4 §3 hydrate; seed §4.5).
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
