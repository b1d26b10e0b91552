import type { ProviderKind } from '../../../shared/contract';
import type { RuleFormat } from '../rules/types';

/**
 * Built-in agent presets, as data. Each pins an exact version (ACP adapters and CLIs churn weekly;
 * acp.md §1 and §3 list the versions checked). npm presets are installed on demand into
 * `<dataDir>/agents/<id>@<version>` and launched as `node <bin entry>` (`launch: 'node'`) or, for
 * packages whose bin is a native executable, run directly (`launch: 'exec'`); never through npx.
 * A binary of the same name on PATH is used when the pinned install is absent.
 */
export interface AgentPreset {
  id: string;
  name: string;
  description: string;
  /** npm package and exact version. */
  package: string;
  version: string;
  /** Name of the package's `bin` entry to launch, also looked up on PATH. */
  bin: string;
  /** How the bin entry runs: with Atrium's Node (`node <entry>`), or as an executable. */
  launch: 'node' | 'exec';
  /** Arguments that switch the program to ACP over stdio. */
  args: string[];
  /** Environment the preset always sets (the user's environment and per-agent variables come first/last). */
  env: Record<string, string>;
  /** Packages whose npm install scripts must run (written into the install folder's `allowScripts`). */
  allowScripts: string[];
  /**
   * Session mode to select right after `session/new` when the agent offers it, so nothing is
   * auto-allowed: Claude's adapter starts in `auto` (it decides permissions itself); `default`
   * ("Manual") makes it ask through `session/request_permission` (acp.md §7, checked with 0.101.0).
   * codex-acp 2.6.0 starts in `agent` ("Auto review": commands and patches in the workspace run
   * unasked); `read-only` keeps Codex's sandbox read-only, so every patch and every command that
   * leaves the sandbox is a permission request (measured in codexReal.test.ts).
   */
  initialModeId: string | null;
  /**
   * Rule formats the agent loads by itself as Atrium launches it, so they
   * are not sent twice; defaults per preset in `workspacePolicy/agentIsolation.ts`.
   */
  nativeRuleFormats?: RuleFormat[];
  /**
   * Where npm install instructions point (the install spec); defaults to `package@version`.
   * Tests point it at a local tarball.
   */
  installSpec?: string;
  /**
   * Provider kinds the agent can speak (the variables of `credentials/modelVariables.ts` it reads);
   * absent when it speaks many (Atrium then accepts any kind). Claude Code reads Anthropic's
   * variables, including its Bedrock and Vertex switches; Codex and Qwen Code the OpenAI ones;
   * Gemini CLI the Gemini API's.
   */
  providerKinds?: readonly ProviderKind[];
}

/** The presets Atrium ships, in display order. */
export const AGENT_PRESETS: readonly AgentPreset[] = [
  {
    id: 'claude',
    providerKinds: ['anthropic', 'bedrock', 'vertex'],
    name: 'Claude Code',
    description: 'Anthropic Claude Code through the ACP adapter. Needs ANTHROPIC_API_KEY (or a Claude login) in its environment.',
    package: '@agentclientprotocol/claude-agent-acp',
    version: '0.101.0',
    bin: 'claude-agent-acp',
    launch: 'node',
    args: [],
    env: {},
    allowScripts: [],
    initialModeId: 'default',
  },
  {
    id: 'codex',
    providerKinds: ['openai', 'openai-compatible'],
    name: 'Codex',
    description: 'OpenAI Codex through the ACP adapter. Needs OPENAI_API_KEY or a Codex login.',
    package: '@agentclientprotocol/codex-acp',
    version: '2.6.0',
    bin: 'codex-acp',
    launch: 'node',
    args: [],
    env: {},
    allowScripts: [],
    initialModeId: 'read-only',
  },
  {
    id: 'gemini',
    providerKinds: ['gemini'],
    name: 'Gemini CLI',
    description: 'Google Gemini CLI in ACP mode (`gemini --acp`). Needs GEMINI_API_KEY or a Google login.',
    package: '@google/gemini-cli',
    version: '0.61.0',
    bin: 'gemini',
    launch: 'node',
    args: ['--acp'],
    env: {},
    allowScripts: [],
    initialModeId: null,
  },
  {
    id: 'opencode',
    name: 'OpenCode',
    description: 'OpenCode in ACP mode (`opencode acp`); its npm package installs a native binary.',
    package: 'opencode-ai',
    version: '1.18.33',
    bin: 'opencode',
    launch: 'exec',
    args: ['acp'],
    env: {},
    allowScripts: ['opencode-ai'],
    initialModeId: null,
  },
  {
    id: 'qwen',
    providerKinds: ['openai', 'openai-compatible'],
    name: 'Qwen Code',
    description: 'Qwen Code in ACP mode (`qwen --acp`).',
    package: '@qwen-code/qwen-code',
    version: '0.24.4',
    bin: 'qwen',
    launch: 'node',
    args: ['--acp'],
    env: {},
    allowScripts: [],
    initialModeId: null,
  },
];
