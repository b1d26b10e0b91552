/** A shell embed found in a command or skill template. */
export interface ShellEmbed {
  /** The shell command as written (trimmed). */
  command: string;
  /** 1-based line within the template. */
  line: number;
  /** Offsets of the whole embed (`` !`cmd` `` or the ```` ```! ```` block) in the template. */
  start: number;
  end: number;
}

/**
 * Shell commands a command or skill template runs when invoked (formats.md §2.8 "Dynamic
 * context", §2.9): `` !`cmd` `` at a line start or after whitespace, and fenced ```` ```! ````
 * blocks. Found on the template as written, never on text with arguments substituted (an
 * argument can never add an embed). Sorted by position.
 */
export function findShellEmbeds(template: string): ShellEmbed[] {
  const out: ShellEmbed[] = [];
  const lineAt = (offset: number) => template.slice(0, offset).split('\n').length;
  const blocks: Array<[number, number]> = [];
  for (const m of template.matchAll(/^```![ \t]*\r?\n([\s\S]*?)^```[ \t]*$/gm)) {
    const command = m[1].trim();
    blocks.push([m.index, m.index + m[0].length]);
    if (command) out.push({ command, line: lineAt(m.index), start: m.index, end: m.index + m[0].length });
  }
  for (const m of template.matchAll(/(^|[ \t\n])!`([^`\n]+)`/gm)) {
    const start = m.index + m[1].length;
    if (blocks.some(([a, b]) => start >= a && start < b)) continue;
    const command = m[2].trim();
    if (command) out.push({ command, line: lineAt(start), start, end: m.index + m[0].length });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The literal commands of {@link findShellEmbeds}, in order (the trust review's list). */
export function shellEmbedCommands(template: string): string[] {
  return findShellEmbeds(template).map((e) => e.command);
}

/** An `@path` file reference in a template. */
export interface FileRefToken {
  /** The path as written (without `@`). */
  path: string;
  line: number;
  start: number;
  end: number;
}

/**
 * `@path` tokens of a template (seed §11 / formats.md §2.9): at a line start or after whitespace,
 * characters `\w . / - ~`, containing a `/` or a file extension; a trailing `.`/`,` is not part of
 * the path. Shell embeds are excluded by the caller (pass the text outside them).
 */
export function findFileRefs(template: string): FileRefToken[] {
  const out: FileRefToken[] = [];
  for (const m of template.matchAll(/(^|[ \t\n(])@([~\w./-]+)/gm)) {
    const p = m[2].replace(/[.,]+$/, '');
    if (!p.includes('/') && !/\.[A-Za-z0-9]+$/.test(p)) continue;
    const start = m.index + m[1].length;
    out.push({ path: p, line: template.slice(0, start).split('\n').length, start, end: start + 1 + p.length });
  }
  return out;
}
