import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { AtriumError } from '../../../shared/errors';
import type { AgentProcess } from './supervisor';

/**
 * What Atrium advertises at `initialize`: file reads and writes and terminals. Capabilities the
 * agent returns (not per-agent special cases) decide what Atrium uses afterwards.
 */
export const CLIENT_CAPABILITIES: acp.ClientCapabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };

/** Largest single ACP message accepted from an agent (bytes). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The client side of ACP for one agent process: Atrium's answers to the agent's requests. */
export interface ClientHandlers {
  onUpdate(params: acp.SessionNotification): void;
  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse>;
  createTerminal(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse>;
  terminalOutput(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse | Promise<acp.TerminalOutputResponse>;
  waitForTerminalExit(params: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse>;
  killTerminal(params: acp.KillTerminalRequest): void | Promise<void>;
  releaseTerminal(params: acp.ReleaseTerminalRequest): void | Promise<void>;
}

/** Turns an Atrium failure into the JSON-RPC error the agent receives (message kept, e.g. naming the refused path). */
export function toRequestError(error: unknown): acp.RequestError {
  if (error instanceof acp.RequestError) return error;
  if (error instanceof AtriumError) {
    const code = error.code === 'PATH_NOT_FOUND' || error.code === 'NOT_FOUND' ? -32002 : error.code === 'PATH_OUTSIDE_SESSION' || error.code === 'PATH_NOT_ABSOLUTE' || error.code === 'INVALID_PARAMS' ? -32602 : -32603;
    return new acp.RequestError(code, error.message, { code: error.code });
  }
  return new acp.RequestError(-32603, error instanceof Error ? error.message : String(error));
}

const guard =
  <P, R>(fn: (params: P, signal: AbortSignal) => R | Promise<R>) =>
  async ({ params, signal }: { params: P; signal: AbortSignal }): Promise<R> => {
    try {
      return await fn(params, signal);
    } catch (error) {
      throw toRequestError(error);
    }
  };

/**
 * Connects the SDK's client app (ACP SDK 2.4.0 app API) to an agent process over its stdio as
 * newline-delimited JSON-RPC. stderr is never part of the stream. Every handler converts failures
 * into JSON-RPC errors; a misbehaving agent cannot throw into the engine.
 */
export function connectAgent(proc: AgentProcess, handlers: ClientHandlers): acp.ClientConnection {
  const stream = acp.ndJsonStream(
    Writable.toWeb(proc.child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(proc.child.stdout) as ReadableStream<Uint8Array>,
    { maxMessageBytes: MAX_MESSAGE_BYTES },
  );
  return acp
    .client({ name: 'atrium' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      try {
        handlers.onUpdate(params);
      } catch (error) {
        console.error('[atrium] handling session/update failed:', error);
      }
    })
    .onRequest(acp.methods.client.session.requestPermission, guard((p: acp.RequestPermissionRequest, signal) => handlers.requestPermission(p, signal)))
    .onRequest(acp.methods.client.fs.readTextFile, guard((p: acp.ReadTextFileRequest) => handlers.readTextFile(p)))
    .onRequest(acp.methods.client.fs.writeTextFile, guard((p: acp.WriteTextFileRequest) => handlers.writeTextFile(p)))
    .onRequest(acp.methods.client.terminal.create, guard((p: acp.CreateTerminalRequest) => handlers.createTerminal(p)))
    .onRequest(acp.methods.client.terminal.output, guard((p: acp.TerminalOutputRequest) => handlers.terminalOutput(p)))
    .onRequest(acp.methods.client.terminal.waitForExit, guard((p: acp.WaitForTerminalExitRequest) => handlers.waitForTerminalExit(p)))
    .onRequest(
      acp.methods.client.terminal.kill,
      guard(async (p: acp.KillTerminalRequest) => {
        await handlers.killTerminal(p);
        return {};
      }),
    )
    .onRequest(
      acp.methods.client.terminal.release,
      guard(async (p: acp.ReleaseTerminalRequest) => {
        await handlers.releaseTerminal(p);
        return {};
      }),
    )
    .connect(stream);
}

/**
 * A short description of an error an agent returned: `message (code)`, then the agent's own
 * `data.details` when it sent one (an agent's uncaught exception arrives as "Internal error
 * (-32603)" with the real reason only there), at most 500 characters of it.
 */
export function describeAgentError(error: unknown): string {
  if (error instanceof acp.RequestError) {
    const details = (error.data as { details?: unknown } | undefined)?.details;
    const extra = typeof details === 'string' && details.trim() && !error.message.includes(details.trim()) ? `: ${details.trim().slice(0, 500)}` : '';
    return `${error.message} (${error.code})${extra}`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** True for "this session id is unknown" answers: -32002 (resource not found) or equivalent wording. */
export function isStaleSessionError(error: unknown): boolean {
  if (error instanceof acp.RequestError && error.code === -32002) return true;
  const text = error instanceof acp.RequestError ? error.message : describeAgentError(error);
  return /not found|unknown session|no such session|does not exist/i.test(text);
}
