import type { AgentCommand } from '../../../../shared/contract';

/** Commands matching what follows the "/" at the start of the input (prefix matches first). */
export function matchCommands(commands: AgentCommand[], text: string): AgentCommand[] {
  const m = /^\/(\S*)$/.exec(text);
  if (!m) return [];
  const q = m[1].toLowerCase();
  const prefix = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const inner = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...prefix, ...inner].slice(0, 12);
}

/** The completion list of the agent's slash commands, shown above the input while typing "/…". */
export function SlashMenu({ id, matches, active, onPick }: { id: string; matches: AgentCommand[]; active: number; onPick(c: AgentCommand): void }) {
  return (
    <ul className="sess-slash" id={id} role="listbox" aria-label="Agent commands">
      {matches.map((c, i) => (
        <li
          key={c.name}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === active}
          className={i === active ? 'active' : ''}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(c);
          }}
        >
          <code>/{c.name}</code>
          {c.hint && <span className="sess-slash-hint">{c.hint}</span>}
          <span className="sess-slash-desc muted">{c.description}</span>
        </li>
      ))}
    </ul>
  );
}
