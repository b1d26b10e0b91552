import type { TrustDecisionState, TrustImportSource, TrustWarning } from '../../../../shared/contract';

/** One decision found in another tool's trust store, before Atrium resolves it. */
export interface ForeignDecision {
  /** The path as the other tool stored it. */
  sourcePath: string;
  /** The folder the decision applies to (for Gemini `TRUST_PARENT`: the parent of `sourcePath`). */
  folder: string;
  state: TrustDecisionState;
  /** What the tool stored, for display (`hasTrustDialogAccepted: true`, `trust_level = "trusted"`, `TRUST_PARENT`). */
  sourceValue: string;
}

/** What one reader found. Readers never throw: problems are warnings. */
export interface ForeignTrustStore {
  from: TrustImportSource;
  /** Absolute path of the file read. */
  file: string;
  found: boolean;
  decisions: ForeignDecision[];
  warnings: TrustWarning[];
}
