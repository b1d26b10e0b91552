/** Output style limits (seed §3.3, "Numbers at a glance"). */
export const STYLE_LIMITS = {
  /** Files per root and unique styles in total. */
  maxStyles: 32,
  /** File size, bytes. */
  maxFileBytes: 24 * 1024,
  /** Prompt (trimmed body) size, bytes. */
  maxPromptBytes: 16 * 1024,
  /** Sum of all prompts, bytes. */
  maxTotalPromptBytes: 128 * 1024,
  /** Path segments (the root counts as depth 1). */
  maxDepth: 4,
  maxName: 80,
  maxDescription: 256,
} as const;

/** A style id path segment (seed §3.2). */
export const STYLE_SEGMENT = /^[a-z0-9][a-z0-9._-]{0,63}$/;
