import type { HookListing, TrustItemKind, TrustReview, TrustReviewItem } from '../../../../shared/contract';
import { reviewListingItem } from '../hooks/ReviewHookState';
import { count } from './RestrictedBanner';

/** Plural group names of the review, by kind. */
export const KIND_LABEL: Record<TrustItemKind, string> = {
  hook: 'Hooks',
  mcpServer: 'MCP servers',
  lspServer: 'LSP servers',
  command: 'Custom commands',
  setting: 'Settings',
  env: 'Environment variables',
  plugin: 'Plugins',
  skill: 'Skills',
  subagent: 'Subagents',
  outputStyle: 'Output styles',
  instruction: 'Instruction files',
};

/** Singular noun of each kind, for counted phrases ("1 MCP server", "3 hooks"). */
export const KIND_NOUN: Record<TrustItemKind, string> = {
  hook: 'hook',
  mcpServer: 'MCP server',
  lspServer: 'LSP server',
  command: 'custom command',
  setting: 'setting',
  env: 'environment variable',
  plugin: 'plugin',
  skill: 'skill',
  subagent: 'subagent',
  outputStyle: 'output style',
  instruction: 'instruction file',
};

/** What the review summary counts: per kind (only kinds present), what runs code, what needs approval after trusting. */
export interface ReviewFacts {
  kinds: Array<{ kind: TrustItemKind; total: number; executable: number }>;
  executable: number;
  /** Hooks and MCP servers that will not run after trusting until approved (unapproved or modified). */
  needApproval: { hooks: number; servers: number };
  /** Hooks and MCP servers already approved at their current digest. */
  approved: number;
  warnings: number;
  /** Items that redirect model traffic (a repository's base URL or model setting): Atrium withholds them until approved in Agent settings. */
  endpoints: number;
}

/** True for a review item that sends model traffic to an endpoint the repository chooses (it carries {@link modelTrafficWarning}'s warning). */
export function redirectsModelTrafficItem(item: TrustReviewItem): boolean {
  return item.warnings.some((w) => w.message.startsWith('redirects model traffic'));
}

/**
 * Counts the review for its summary. Approval states come from the hooks listing (`hooks.list`
 * with held-back items), matched item by item as the review rows show them; while that listing
 * is not loaded, `needApproval` is null.
 */
export function reviewFacts(review: TrustReview, groups: Array<[TrustItemKind, TrustReviewItem[]]>, listing: HookListing | null): ReviewFacts & { needApprovalKnown: boolean } {
  const kinds = groups.map(([kind, items]) => ({ kind, total: items.length, executable: items.filter((i) => i.executable).length }));
  let hooks = 0;
  let servers = 0;
  let approved = 0;
  for (const item of review.items) {
    const found = reviewListingItem(item, listing);
    if (!found) continue;
    if (found.state === 'unapproved' || found.state === 'modified') {
      if (item.kind === 'hook') hooks++;
      else servers++;
    } else if (found.state === 'approved') approved++;
  }
  const warnings = review.warnings.length + review.items.reduce((n, i) => n + i.warnings.length, 0);
  const endpoints = review.items.filter(redirectsModelTrafficItem).length;
  return { kinds, executable: review.executableCount, needApproval: { hooks, servers }, approved, warnings, endpoints, needApprovalKnown: listing !== null };
}

/**
 * The one-screen summary the review opens with: a jump link per kind with its count (and how many
 * run code), what runs code, what still needs approval after trusting, and the warnings.
 * `onJump(kind)` opens that group and moves to it.
 */
export function ReviewSummary({ facts, trusted, onJump }: { facts: ReturnType<typeof reviewFacts>; trusted: boolean; onJump(kind: TrustItemKind): void }) {
  return (
    <section className="review-summary" aria-label="Summary">
      <nav aria-label="Jump to a group">
        <ul className="review-jump">
          {facts.kinds.map(({ kind, total, executable }) => (
            <li key={kind}>
              <button className="review-jump-link" onClick={() => onJump(kind)}>
                {KIND_LABEL[kind]} <span className="review-jump-count">{total}</span>
                {executable > 0 && <span className="review-jump-exec">{executable} run code</span>}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <dl className="review-facts">
        <dt>Runs code</dt>
        <dd data-testid="summary-runs-code">
          {facts.executable === 0
            ? 'Nothing: no hook, server or shell command'
            : `${count(facts.executable, 'item')}: ${facts.kinds
                .filter((k) => k.executable > 0)
                .map((k) => count(k.executable, KIND_NOUN[k.kind]))
                .join(', ')}`}
        </dd>
        <dt>{trusted ? 'Approvals' : 'After trusting'}</dt>
        <dd data-testid="summary-after-trust">{afterTrustingLine(facts, trusted)}</dd>
        {facts.warnings > 0 && (
          <>
            <dt>Warnings</dt>
            <dd>{count(facts.warnings, 'warning')}, shown with the items</dd>
          </>
        )}
      </dl>
    </section>
  );
}

/**
 * The "After trusting" (once trusted: "Approvals") line: hooks and MCP servers that still need
 * approval (Hooks tab), repository model endpoints that stay withheld until approved (Agent
 * settings), and, before trust, that everything else becomes active. Null facts read "Checking".
 */
export function afterTrustingLine(facts: ReturnType<typeof reviewFacts>, trusted: boolean): string {
  const { hooks, servers } = facts.needApproval;
  if (!facts.needApprovalKnown) return 'Checking approvals…';
  const endpointPart =
    facts.endpoints > 0 ? `; ${facts.endpoints === 1 ? '1 repository model endpoint stays' : `${facts.endpoints} repository model endpoints stay`} withheld until approved in Agent settings` : '';
  const rest = `${endpointPart}${trusted ? '' : `; the other items are active once you trust`}.`;
  if (hooks + servers === 0) return facts.approved > 0 ? `Every hook and MCP server is approved (${facts.approved})${rest}` : `No hook or MCP server to approve${rest}`;
  return `${[hooks > 0 && count(hooks, 'hook'), servers > 0 && count(servers, 'MCP server')].filter(Boolean).join(' and ')} still ${hooks + servers === 1 ? 'needs approval before it runs' : 'need approval before they run'} (Hooks tab)${rest}`;
}
