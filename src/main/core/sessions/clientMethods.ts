import * as acp from '@agentclientprotocol/sdk';
import { AtriumError } from '../../../shared/errors';
import { canonicalRoots, confinePath } from './confine';
import type { JournalEvent } from './events';
import { readTextSlice, writeTextAtomic } from './fsMethods';
import type { HookChain, HookContext } from './hooks';
import type { TerminalManager } from './terminals';

/** What the file and terminal methods need from their session. */
export interface ClientMethodsHost {
  /** The agent's session id (requests for other ids are refused). */
  agentSessionId(): string | null;
  /** Session cwd first, then additional directories (absolute). */
  roots(): string[];
  append(event: JournalEvent): void;
  hooks: HookChain;
  hookContext(): HookContext;
  terminals: TerminalManager;
}

/**
 * Runs a read; a missing file becomes the ACP SDK's resource-not-found error
 * (`RequestError.resourceNotFound(path)`: code -32002, message `Resource not found: <path>`,
 * data `{uri: <path>}`), the answer ACP agents recognise as "no such file" (Gemini CLI 0.61.0's
 * `AcpFileSystemService` matches "Resource not found" to ENOENT). Other failures pass through.
 * @throws acp.RequestError -32002 for a missing file; what `read` throws otherwise
 */
export function readMissingAsNotFound<T>(requestedPath: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof AtriumError && error.code === 'PATH_NOT_FOUND') throw acp.RequestError.resourceNotFound(requestedPath);
    throw error;
  }
}

/**
 * ACP `fs/*` and `terminal/*` for one session. Paths are confined to the session roots after
 * resolving symlinks; a refusal is recorded (`fs_refused`, shown as a transcript notice) and
 * returned to the agent as an error naming the path. Reads honour `line`/`limit`; writes are
 * atomic; a missing file is the SDK's resource-not-found error ({@link readMissingAsNotFound}).
 * `beforeRead`/`beforeWrite`/`beforeTerminal` hooks may deny. When a hook supplies the session's
 * I/O (`clientIo`: an editor's own through `atrium acp`), the reading, writing and running go there
 * after the same checks, and are journaled the same way.
 */
export function fileAndTerminalMethods(host: ClientMethodsHost) {
  const checkSession = (sessionId: string) => {
    if (sessionId !== host.agentSessionId()) throw new AtriumError('NOT_FOUND', `Unknown session "${sessionId}" for this connection.`);
  };
  const confined = (op: string, p: string) => {
    try {
      return confinePath(p, canonicalRoots(host.roots()), op);
    } catch (error) {
      if (error instanceof AtriumError) host.append({ kind: 'fs_refused', data: { op, path: String(p), message: error.message } });
      throw error;
    }
  };
  /** The hook-supplied terminals when they own `terminalId`, else null (Atrium's own). */
  const delegated = (terminalId: string) => {
    const io = host.hooks.clientIo(host.hookContext())?.terminals;
    return io?.owns(terminalId) ? io : null;
  };
  const deny = (op: string, p: string, message: string, transcript?: string) => {
    host.append({ kind: 'fs_refused', data: { op, path: p, message: transcript ?? message } });
    throw new AtriumError('PATH_OUTSIDE_SESSION', message);
  };
  return {
    async readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
      checkSession(params.sessionId);
      const resolved = confined('read', params.path);
      const v = await host.hooks.verdict((h) => h.beforeRead?.(host.hookContext(), resolved));
      if (!v.allow) deny('read', params.path, v.message, v.transcript);
      const io = host.hooks.clientIo(host.hookContext());
      const content = io?.readTextFile
        ? await io.readTextFile({ path: resolved, line: params.line, limit: params.limit })
        : readMissingAsNotFound(params.path, () => readTextSlice(resolved, params.line, params.limit));
      host.append({ kind: 'fs_read', data: { path: resolved, line: params.line ?? null, limit: params.limit ?? null, chars: content.length } });
      return { content };
    },
    async writeTextFile(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
      checkSession(params.sessionId);
      if (typeof params.content !== 'string') throw new AtriumError('INVALID_PARAMS', 'fs/write_text_file needs text content.');
      const resolved = confined('write', params.path);
      const v = await host.hooks.verdict((h) => h.beforeWrite?.(host.hookContext(), resolved, params.content));
      if (!v.allow) deny('write', params.path, v.message, v.transcript);
      const io = host.hooks.clientIo(host.hookContext());
      try {
        if (io?.writeTextFile) await io.writeTextFile({ path: resolved, content: params.content });
        else writeTextAtomic(resolved, params.content);
      } catch (error) {
        await host.hooks.afterWrite(host.hookContext(), resolved, params.content, (error as Error).message);
        throw error;
      }
      host.append({ kind: 'fs_write', data: { path: resolved, chars: params.content.length } });
      await host.hooks.afterWrite(host.hookContext(), resolved, params.content, null);
      return {};
    },
    async createTerminal(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> {
      checkSession(params.sessionId);
      const cwd = params.cwd ? confined('run a terminal in', params.cwd) : host.roots()[0];
      const v = await host.hooks.verdict((h) => h.beforeTerminal?.(host.hookContext(), params.command, params.args ?? [], cwd));
      if (!v.allow) deny('run', params.command, v.message, v.transcript);
      const io = host.hooks.clientIo(host.hookContext())?.terminals;
      const terminalId = io ? await io.create({ ...params, cwd }) : host.terminals.create({ ...params, cwd });
      host.append({ kind: 'terminal_created', data: { terminalId, command: params.command, args: params.args ?? [], cwd } });
      return { terminalId };
    },
    terminalOutput(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse | Promise<acp.TerminalOutputResponse> {
      checkSession(params.sessionId);
      const io = delegated(params.terminalId);
      return io ? io.output(params.terminalId) : host.terminals.output(params.terminalId);
    },
    async waitForTerminalExit(params: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> {
      checkSession(params.sessionId);
      const io = delegated(params.terminalId);
      return io ? io.waitForExit(params.terminalId) : host.terminals.waitForExit(params.terminalId);
    },
    async killTerminal(params: acp.KillTerminalRequest): Promise<void> {
      checkSession(params.sessionId);
      const io = delegated(params.terminalId);
      if (io) await io.kill(params.terminalId);
      else host.terminals.kill(params.terminalId);
    },
    async releaseTerminal(params: acp.ReleaseTerminalRequest): Promise<void> {
      checkSession(params.sessionId);
      const io = delegated(params.terminalId);
      if (io) await io.release(params.terminalId);
      else host.terminals.release(params.terminalId);
    },
  };
}
