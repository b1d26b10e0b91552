import type { AgentCommand, SessionCommand } from '../../../../shared/contract';

/** One entry of the "/" menu: a command the agent advertises (ACP), or a workspace command or skill Atrium expands. */
export type SlashItem = { group: 'agent'; key: string; command: AgentCommand } | { group: 'workspace'; key: string; command: SessionCommand };

const MAX_PER_GROUP = 12;

/** `items` whose name matches `q`: prefix matches first, then names containing it. */
function ranked<T>(items: readonly T[], q: string, names: (item: T) => string[]): T[] {
  const has = (item: T, test: (n: string) => boolean) => names(item).some((n) => test(n.toLowerCase()));
  const prefix = items.filter((c) => has(c, (n) => n.startsWith(q)));
  const inner = items.filter((c) => !prefix.includes(c) && has(c, (n) => n.includes(q)));
  return [...prefix, ...inner].slice(0, MAX_PER_GROUP);
}

/**
 * The menu entries for what follows the "/" at the start of the input, agent commands first, then
 * workspace commands and skills (matched on what is typed to invoke them and on their id). Empty
 * unless the input is exactly "/" plus a word.
 */
export function matchSlash(agent: readonly AgentCommand[], workspace: readonly SessionCommand[], text: string): SlashItem[] {
  const m = /^\/(\S*)$/.exec(text);
  if (!m) return [];
  const q = m[1].toLowerCase();
  return [
    ...ranked(agent, q, (c) => [c.name]).map((command): SlashItem => ({ group: 'agent', key: `agent:${command.name}`, command })),
    ...ranked(workspace, q, (c) => [c.invoke, c.id]).map((command): SlashItem => ({ group: 'workspace', key: `workspace:${command.kind}:${command.id}`, command })),
  ];
}

/** Names that both the agent and the workspace offer (`/review` twice): their entries are marked, and the preview says which one runs. */
export function clashingNames(agent: readonly AgentCommand[], workspace: readonly SessionCommand[]): Set<string> {
  const agentNames = new Set(agent.map((a) => a.name));
  return new Set(workspace.filter((c) => agentNames.has(c.invoke)).map((c) => c.invoke));
}

/** What a pick writes into the input. */
export function slashText(item: SlashItem): string {
  return `/${item.group === 'agent' ? item.command.name : item.command.invoke} `;
}

/**
 * The completion list shown above the input while typing "/…": two labelled groups, the agent's
 * own commands and the workspace's commands and skills (with their source badge and argument
 * hint). `active` indexes the flat `items` (the order arrow keys move in).
 */
export function SlashMenu({
  id,
  items,
  active,
  inactive,
  clashes,
  onPick,
}: {
  id: string;
  items: SlashItem[];
  active: number;
  inactive: number;
  /** Names offered by both groups (see {@link clashingNames}): each such entry carries a badge saying whose it is. */
  clashes: ReadonlySet<string>;
  onPick(item: SlashItem): void;
}) {
  const groups = [
    { group: 'agent' as const, label: 'Agent commands' },
    { group: 'workspace' as const, label: 'Workspace commands' },
  ];
  return (
    <ul className="sess-slash" id={id} role="listbox" aria-label="Slash commands">
      {groups.map(({ group, label }) => {
        const entries = items.map((item, index) => ({ item, index })).filter((e) => e.item.group === group);
        if (!entries.length) return null;
        return (
          <li key={group} role="presentation" className="sess-slash-group">
            <div className="sess-slash-label" id={`${id}-${group}`}>
              {label}
              {group === 'workspace' && inactive > 0 && <span className="muted"> · {inactive} inactive in restricted mode</span>}
            </div>
            <ul role="group" aria-labelledby={`${id}-${group}`}>
              {entries.map(({ item, index }) => (
                <li
                  key={item.key}
                  id={`${id}-${index}`}
                  role="option"
                  aria-selected={index === active}
                  className={index === active ? 'active' : ''}
                  data-slash-group={item.group}
                  onMouseDown={(e) => {
                    e.preventDefault();
                    onPick(item);
                  }}
                >
                  {item.group === 'agent' ? <AgentEntry command={item.command} clash={clashes.has(item.command.name)} /> : <WorkspaceEntry command={item.command} clash={clashes.has(item.command.invoke)} />}
                </li>
              ))}
            </ul>
          </li>
        );
      })}
    </ul>
  );
}

function AgentEntry({ command, clash }: { command: AgentCommand; clash: boolean }) {
  return (
    <>
      <code>/{command.name}</code>
      {command.hint && <span className="sess-slash-hint">{command.hint}</span>}
      {clash && (
        <span className="badge sess-slash-badge sess-slash-agent" title={`The agent's own /${command.name}: sent to the agent as typed. The workspace has a /${command.name} too (below).`}>
          agent
        </span>
      )}
      <span className="sess-slash-desc muted">{command.description}</span>
    </>
  );
}

function WorkspaceEntry({ command, clash }: { command: SessionCommand; clash: boolean }) {
  const hint = command.argumentHint ?? (command.arguments.length ? command.arguments.map((a) => `<${a}>`).join(' ') : null);
  return (
    <>
      <code>/{command.invoke}</code>
      {hint && <span className="sess-slash-hint">{hint}</span>}
      <span
        className={`badge sess-slash-badge sess-slash-${command.source}`}
        title={clash ? `${command.path}: the workspace's /${command.invoke}, expanded by Atrium (the agent has its own /${command.invoke} above)` : command.path}
      >
        {command.source}
      </span>
      {command.kind === 'skill' && <span className="badge sess-slash-badge">skill</span>}
      {command.shellEmbeds.length > 0 && (
        <span className="badge sess-slash-badge" title={command.shellEmbeds.join('\n')}>
          runs {command.shellEmbeds.length} shell command{command.shellEmbeds.length === 1 ? '' : 's'}
        </span>
      )}
      <span className="sess-slash-desc muted">{command.description ?? command.path}</span>
    </>
  );
}
