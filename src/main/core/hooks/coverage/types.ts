/**
 * The shapes the command-coverage analysis works with: what it returns ({@link Coverage}), where a
 * command runs ({@link CoverageContext}), its bounds, and the {@link Walker} surface the per-program
 * followers (interpreters, build tools, source imports) call back into while the analysis runs.
 */
import type { HookUncovered } from '../../../../shared/contract';
import type { Expanded, ShellScript } from '../../formats/shell';

/**
 * What a hook or MCP server command executes, as far as it can be known before it runs: the files
 * whose bytes decide what runs (to be hashed into the digest), what cannot be covered (to be shown
 * as "not covered by the digest: …"), and where in the command line each covered file is named
 * (so the run can execute a verified copy instead).
 */
export interface Coverage {
  /** Absolute paths of the files the command runs, sources, requires or reads as a program (Makefile, package.json), in order of discovery, unique. */
  files: string[];
  /** Folders of scripts that locate their siblings at run time (`$(dirname "$0")`, `__dirname`): their regular files are hashed too (bounded). */
  folders: string[];
  uncovered: HookUncovered[];
  /** Spans of the top-level command line (shell form) or argument indices (exec form) that name a covered file, for running the verified copy. */
  rewrites: Array<{ start: number; end: number; abs: string } | { arg: number; abs: string }>;
}

/** Where and with what a command runs. */
export interface CoverageContext {
  /** The project folder: the default working directory and `$CLAUDE_PROJECT_DIR`. */
  projectDir: string;
  homeDir: string;
  /** `${CLAUDE_PLUGIN_ROOT}` of a plugin hook or server, else null. */
  pluginRoot: string | null;
  /** The working directory when it is not the project folder (an MCP server's `cwd`), absolute. */
  cwd?: string;
  /** Variables the handler sets itself (its `env`), known at run time. */
  env?: Readonly<Record<string, string>>;
}

/** Most files one command's coverage follows (scripts, sources, imports, config files). */
export const MAX_COVERED_FILES = 64;
/** Most bytes of one file read to look for what it sources or imports. */
export const MAX_ANALYZED_BYTES = 512 * 1024;
/** Most nested scripts, sources and `-c` strings followed. */
export const MAX_DEPTH = 8;

/** Where a word sits in the top-level command line: a source span (shell form), an argument index (exec form), or nowhere (a nested script). */
export type At = { start: number; end: number } | { arg: number } | null;
/** One expanded word of a command: its value when known, else why not; `raw` as written. */
export type ArgWord = ({ ok: true; value: string } | { ok: false; reason: Extract<Expanded, { ok: false }>['reason']; detail: string }) & { raw: string; at: At };
/** How a covered file is followed: as a shell script, a Node or Python program, another program's text, or a binary (hashed only). */
export type FileKind = 'shell' | 'node' | 'python' | 'other' | 'binary';
/** Where an interpreter's stdin code comes from: files (`< x.sh`, `cat x.sh |`), literal text (heredoc, here-string, `echo … |`), unknown, or nothing (the hook's own stdin). */
export type StdinSource = { files: ArgWord[] } | { text: string } | { unknown: string } | null;
/** What the shell form knows about one simple command while its program is followed. */
export interface CommandContext {
  cwd: string | null;
  /** Why the working directory is not known, when it is not. */
  why: string | null;
  script: ShellScript;
  stdin: StdinSource;
}

/**
 * The running analysis as the per-program followers see it: the covered set, the report, and the
 * recursive steps (follow a shell text, cover a file). Implemented by `Analysis`.
 */
export interface Walker {
  readonly ctx: CoverageContext;
  /** Variables Atrium sets for the command (see `knownVariables`). */
  readonly vars: Map<string, string>;
  /** Files already searched for what they run (each once). */
  readonly analyzed: Set<string>;
  readonly uncovered: HookUncovered[];
  /** Reports what cannot be covered, once per code and text. */
  uncover(code: string, text: string, message: string): void;
  /** Adds a file to the covered set; false when the bound is reached (then it is reported). */
  add(abs: string): boolean;
  /** A path as shown in messages: relative to the project folder when inside it. */
  shown(abs: string): string;
  /** Analyses a shell text (a script, a `-c` string, a recipe, an npm script). */
  shell(text: string, cwd: string | null, vars: Map<string, string>, depth: number, origin: string | null, top?: boolean): Promise<void>;
  /** Covers a file and follows what it runs. `invoked` is `$0` as the shell will see it. */
  cover(abs: string, w: ArgWord | null, kind: FileKind, cwd: string | null, vars: Map<string, string>, depth: number, invoked: string): Promise<void>;
  /** An absolute path for a path word, or null (then an `uncovered` entry says why). */
  resolve(value: string, cwd: string | null, whole: string, why: string | null): string | null;
  /** Reports a word whose value is decided at run time. */
  unknownWord(w: ArgWord, whole: string, cwd: string | null): void;
  /** Non-option arguments of an interpreter that are existing files are hashed too (`bash run.sh check.py`). */
  interpreterArgs(rest: ArgWord[], cwd: string | null, whole: string, why: string | null): Promise<void>;
}
