import type { TrustWarning } from '../../../../shared/contract';

/**
 * Heuristic risk notices for a literal command (hooks, helper commands, MCP/LSP servers). They do
 * not decide anything: they draw the reviewer's eye to the patterns seen in hook backdoors
 * (CVE-2025-59536, public `SessionStart` PoCs). `fix` is null: these are notices.
 */
export function commandRiskWarnings(command: string, path: string, line: number | null): TrustWarning[] {
  const out: string[] = [];
  if (/\b(curl|wget|iwr|Invoke-WebRequest)\b[^\n|;]*\|\s*(sudo\s+)?(ba|z|k|da)?sh\b/.test(command) || /\$\((curl|wget)\b/.test(command) || /\b(bash|sh)\s+<\(\s*(curl|wget)/.test(command)) {
    out.push('downloads a script from the internet and runs it');
  }
  if (/(~|\$HOME|\$\{HOME\})\/\.(aws|ssh|gnupg|kube|docker|netrc|npmrc|pypirc|config\/gh|config\/gcloud)\b|\bid_(rsa|ed25519|ecdsa)\b|\.env\b|credentials\b/.test(command)) {
    out.push('reads credential or secret files');
  }
  if (/\b(curl|wget|nc|ncat|socat)\b[^\n]*(\s-d\b|--data|\s-F\b|--form|--upload-file|\s-T\b|@-)/.test(command)) {
    out.push('sends data over the network');
  }
  if (/\bbase64\b/.test(command) && /\b(curl|wget|nc)\b/.test(command)) out.push('encodes data before sending it (base64)');
  if (/\brm\s+-[a-zA-Z]*[rf][a-zA-Z]*\s/.test(command)) out.push('deletes files (rm -r/-f)');
  if (/\b(eval|exec)\b\s*["'$(]/.test(command)) out.push('evaluates dynamically built code');
  return out.map((what) => ({ path, line, message: `this command ${what}`, fix: null }));
}

/** Notice for hook events that run without any action from the user. */
export function eventNotice(event: string, path: string, line: number | null): TrustWarning | null {
  const e = event.toLowerCase();
  if (e === 'sessionstart' || e === 'setup') {
    return { path, line, message: `${event} hooks run automatically when an agent session starts, before you type anything`, fix: null };
  }
  if (e === 'userpromptsubmit' || e === 'beforeagent' || e === 'beforesubmitprompt') {
    return { path, line, message: `${event} hooks run on every prompt you send and receive its text`, fix: null };
  }
  return null;
}
