import type { AgentBehaviour } from './contract';

/**
 * What the new-session dialog and `atrium session new` say about an agent before it is launched,
 * from the `sessions.agentBehaviour` answer: one source, so the two surfaces say the same.
 */
export interface AgentBehaviourText {
  /** True for an agent Atrium does not isolate: shown as a warning (dialog: warning banner; CLI: "Warning:"). */
  warning: boolean;
  /** E.g. "What Atrium enforces for Claude Code" or "Atrium cannot enforce approvals for OpenCode". */
  heading: string;
  /** What Atrium passes or sets at launch (its switches), empty when it has none for this agent. */
  enforced: string[];
  /** What the agent still loads or runs by itself. */
  byItself: string[];
  /** The rule formats the agent reads itself (Atrium does not send them again), or null. */
  nativeRules: string | null;
}

/** Labels of the sections, shared by both surfaces. */
export const AGENT_BEHAVIOUR_LABELS = { enforced: 'Atrium enforces, at launch:', byItself: 'The agent still, by itself:' } as const;

/** The sentences to show for an agent (see {@link AgentBehaviourText}). */
export function agentBehaviourText(b: AgentBehaviour): AgentBehaviourText {
  return {
    warning: !b.isolated,
    heading: b.isolated ? `What Atrium enforces for ${b.name}` : `Atrium cannot enforce approvals for ${b.name}`,
    enforced: b.switches,
    byItself: b.ownBehaviour,
    nativeRules: b.nativeRuleFormats.length ? `Rule formats it reads itself (Atrium does not send them again): ${b.nativeRuleFormats.join(', ')}` : null,
  };
}

/**
 * The same as plain text lines (the CLI): the heading ("Warning: " first for an agent Atrium does
 * not isolate), each section's label and its sentences indented with "- ".
 */
export function agentBehaviourLines(b: AgentBehaviour): string[] {
  const t = agentBehaviourText(b);
  const lines = [t.warning ? `Warning: ${t.heading}.` : `${t.heading}:`];
  if (t.enforced.length) lines.push(`  ${AGENT_BEHAVIOUR_LABELS.enforced}`, ...t.enforced.map((s) => `    - ${s}`));
  if (t.byItself.length) lines.push(`  ${AGENT_BEHAVIOUR_LABELS.byItself}`, ...t.byItself.map((s) => `    - ${s}`));
  if (t.nativeRules) lines.push(`  ${t.nativeRules}`);
  return lines;
}
