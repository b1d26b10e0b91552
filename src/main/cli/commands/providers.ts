import type { Command } from 'commander';
import type { AgentSetting, CredentialStoreInfo, Provider, ProviderKind, RepositoryEndpoint } from '../../../shared/contract';
import { CliError, runWithEngine, withGlobalOptions, type GlobalOptions } from '../context';
import { findWorkspace } from '../workspaceRef';

/**
 * `atrium providers list|add|remove|test|endpoints|approve-endpoint`, `atrium credentials
 * set|remove PROVIDER` (the key from stdin, never from argv) and `atrium workspace agent-settings`.
 * Keys never appear in any output, `--json` included.
 */
export function registerProvidersCommands(program: Command): void {
  const providers = program.command('providers').description('model providers (endpoints and kinds; keys are set with `atrium credentials set`)');

  withGlobalOptions(providers.command('list').description('providers, whether a key is stored, and where keys are kept')).action((opts: GlobalOptions) =>
    runWithEngine(opts, async ({ dispatcher, print }) => {
      const result = await dispatcher.call('providers.list', {});
      print(result, () => [storeLine(result.store), ...(result.providers.length ? result.providers.map(describeProvider) : ['No providers yet. Add one with: atrium providers add ID --kind anthropic --base-url URL'])].join('\n'));
    }),
  );

  withGlobalOptions(providers.command('add <id>').description('add a provider, or update the one with this id'))
    .requiredOption('--kind <kind>', `one of: ${PROVIDER_KINDS.join(', ')}`)
    .option('--name <name>', 'display name (default: the id)')
    .option('--base-url <url>', "the API's base URL (default: the kind's own endpoint; required for openai-compatible)")
    .option('--header <Name=value...>', 'an extra HTTP header sent with every request (not for keys)')
    .option('--replace', "change an existing provider's kind (deletes its key; the base URL is the one given now)")
    .action((id: string, opts: GlobalOptions & { kind: string; name?: string; baseUrl?: string; header?: string[]; replace?: boolean }) =>
      runWithEngine(opts, async ({ dispatcher, print }) => {
        if (!(PROVIDER_KINDS as readonly string[]).includes(opts.kind)) throw new CliError(`--kind must be one of ${PROVIDER_KINDS.join(', ')}, not "${opts.kind}".`, 2);
        const kind = opts.kind as ProviderKind;
        const headers = opts.header
          ? Object.fromEntries(
              opts.header.map((kv) => {
                const eq = kv.indexOf('=');
                if (eq < 1) throw new CliError(`--header takes Name=value, not "${kv}".`, 2);
                return [kv.slice(0, eq), kv.slice(eq + 1)];
              }),
            )
          : undefined;
        const result = await dispatcher.call('providers.save', { id, kind, name: opts.name, baseUrl: opts.baseUrl, headers, replace: opts.replace });
        print(result, () => `${result.created ? 'Added' : 'Updated'}: ${describeProvider(result.provider)}${result.provider.hasKey ? '' : `\nSet its key with: atrium credentials set ${id} < keyfile`}`);
      }),
    );

  withGlobalOptions(providers.command('remove <id>').description('remove a provider, its key and its workspace overrides (refused while workspaces use it, unless --force)'))
    .option('--force', 'remove it even though workspace agent settings choose it (those agents then start with the environment Atrium was started with)')
    .action((id: string, opts: GlobalOptions & { force?: boolean }) =>
      runWithEngine(opts, async ({ dispatcher, print }) => {
        const { removed } = await dispatcher.call('providers.remove', { id, force: opts.force });
        if (!removed) throw new CliError(`No provider "${id}". See: atrium providers list`);
        print({ removed }, () => `Removed provider ${id} and its key${opts.force ? '. Agents that chose it start with the environment Atrium was started with.' : ''}`);
      }),
    );

  withGlobalOptions(providers.command('test <id>').description("list models at the provider's endpoint with its key"))
    .option('--workspace <ref>', "use this workspace's override of the base URL")
    .action((id: string, opts: GlobalOptions & { workspace?: string }) =>
      runWithEngine(opts, async ({ engine, dispatcher, print }) => {
        const workspaceId = opts.workspace ? findWorkspace(engine.workspaces, opts.workspace).id : undefined;
        const result = await dispatcher.call('providers.test', { id, workspaceId });
        print(result, () => `${result.ok ? 'OK' : 'FAILED'}: ${result.message}`);
        if (!result.ok) process.exitCode = 1;
      }),
    );

  withGlobalOptions(providers.command('endpoints <workspace>').description('model endpoints the repository supplies, their digests and approval')).action((ref: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      const ws = findWorkspace(engine.workspaces, ref);
      const { endpoints } = await dispatcher.call('providers.agentSettings', { workspaceId: ws.id });
      print({ endpoints }, () => (endpoints.length ? endpoints.map(describeEndpoint).join('\n') : `${ws.name}: the repository supplies no model endpoint.`));
    }),
  );

  withGlobalOptions(providers.command('approve-endpoint <workspace> <digest>').description("let new sessions send your key to this exact repository endpoint definition"))
    .option('--revoke', 'withdraw the approval instead')
    .action((ref: string, digest: string, opts: GlobalOptions & { revoke?: boolean }) =>
      runWithEngine(opts, async ({ engine, dispatcher, print }) => {
        const ws = findWorkspace(engine.workspaces, ref);
        if (!/^[0-9a-f]{64}$/.test(digest)) throw new CliError(`The digest is 64 hex characters, as \`atrium providers endpoints ${ref}\` prints it.`, 2);
        const { endpoints } = await dispatcher.call('providers.approveEndpoint', { workspaceId: ws.id, digest, approved: !opts.revoke });
        print({ endpoints }, () => `${opts.revoke ? 'Revoked' : 'Approved'} ${digest.slice(0, 12)}… (sessions created from now on follow it)\n${endpoints.map(describeEndpoint).join('\n')}`);
      }),
    );

  const credentials = program.command('credentials').description('provider keys in the credential store (OS keychain, else a 0600 file)');

  withGlobalOptions(credentials.command('set <provider>').description('store or rotate a key, read from stdin (never from the command line)')).action((id: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ dispatcher, print }) => {
      const key = await readKey(id);
      if (!key) throw new CliError(`No key on stdin. Pipe it in: atrium credentials set ${id} < keyfile`, 2);
      const result = await dispatcher.call('providers.setKey', { id, key });
      if (result.store.warning) process.stderr.write(`warning: ${result.store.warning}\n`);
      print(result, () => `Stored the key of ${id} (…${result.provider.keyHint}) in ${result.store.label}. Sessions use it from their next agent start.`);
    }),
  );

  withGlobalOptions(credentials.command('remove <provider>').description("delete a provider's key")).action((id: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ dispatcher, print }) => {
      const result = await dispatcher.call('providers.removeKey', { id });
      print(result, () => (result.removed ? `Deleted the key of ${id}` : `No key was stored for ${id}`));
    }),
  );

  const workspace = program.commands.find((c) => c.name() === 'workspace') ?? program.command('workspace');
  withGlobalOptions(workspace.command('agent-settings <ref>').description("show or set a workspace's provider, model and mode for an agent"))
    .option('--agent <id>', 'the agent (claude, codex, gemini, …); without options other than this, shows its settings')
    .option('--provider <id>', 'provider id, or "none" for the environment Atrium was started with')
    .option('--model <model>', 'default model id, or "none"')
    .option('--mode <modeId>', 'mode new sessions start in, or "none"')
    .option('--base-url <url>', 'point --provider at this base URL in this workspace only ("none" removes the override)')
    .action((ref: string, opts: GlobalOptions & { agent?: string; provider?: string; model?: string; mode?: string; baseUrl?: string }) =>
      runWithEngine(opts, async ({ engine, dispatcher, print }) => {
        const ws = findWorkspace(engine.workspaces, ref);
        const none = (v: string | undefined) => (v === undefined ? undefined : v === 'none' ? null : v);
        if (opts.baseUrl !== undefined) {
          if (!opts.provider || opts.provider === 'none') throw new CliError('--base-url needs --provider ID (the provider to point elsewhere in this workspace).', 2);
          await dispatcher.call('providers.setOverride', { workspaceId: ws.id, providerId: opts.provider, baseUrl: none(opts.baseUrl) ?? null });
        }
        const changing = opts.provider !== undefined || opts.model !== undefined || opts.mode !== undefined;
        if (changing) {
          if (!opts.agent) throw new CliError('Name the agent: --agent ID (see: atrium agents list).', 2);
          const current = (await dispatcher.call('providers.agentSettings', { workspaceId: ws.id })).settings.find((s) => s.agentId === opts.agent);
          const { setting } = await dispatcher.call('providers.setAgentSettings', {
            workspaceId: ws.id,
            agentId: opts.agent,
            providerId: none(opts.provider) === undefined ? (current?.providerId ?? null) : none(opts.provider)!,
            model: none(opts.model) === undefined ? (current?.model ?? null) : none(opts.model)!,
            modeId: none(opts.mode),
          });
          print({ setting }, () => `${ws.name}: ${describeSetting(setting)} (new sessions; running ones keep what they started with)`);
          return;
        }
        const all = await dispatcher.call('providers.agentSettings', { workspaceId: ws.id });
        const settings = opts.agent ? all.settings.filter((s) => s.agentId === opts.agent) : all.settings;
        print({ ...all, settings }, () =>
          [
            ...(settings.length ? settings.map(describeSetting) : [`${ws.name}: no agent settings${opts.agent ? ` for ${opts.agent}` : ''}; agents use the environment Atrium was started with.`]),
            ...all.overrides.map((o) => `override: ${o.providerId} → ${o.baseUrl}`),
            ...all.endpoints.map(describeEndpoint),
          ].join('\n'),
        );
      }),
    );
}

/** The provider kinds (the contract's `ProviderKind`, spelled out so `--help` loads no schema code). */
const PROVIDER_KINDS = ['anthropic', 'openai', 'openai-compatible', 'gemini', 'bedrock', 'vertex'] as const satisfies readonly ProviderKind[];

/**
 * The key: all of stdin when it is piped (trimmed), or one line typed without echo at a terminal.
 * Never from argv, where other users and shell history could see it.
 */
async function readKey(id: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const c of stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8').trim();
  }
  process.stderr.write(`Key for ${id} (not shown; Enter to finish): `);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve) => {
    let key = '';
    const onData = (buf: Buffer) => {
      for (const ch of buf.toString('utf8')) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          stdin.off('data', onData);
          stdin.setRawMode(false);
          stdin.pause();
          process.stderr.write('\n');
          resolve(key.trim());
          return;
        }
        if (ch === '\u0003') {
          stdin.setRawMode(false);
          process.exit(130);
        }
        if (ch === '\u007f') key = key.slice(0, -1);
        else key += ch;
      }
    };
    stdin.on('data', onData);
  });
}

function storeLine(store: CredentialStoreInfo): string {
  return `Keys are kept in: ${store.label}${store.warning ? `\nwarning: ${store.warning}` : ''}`;
}

function describeProvider(p: Provider): string {
  return `${p.id}  ${p.name}  ${p.kind}  ${p.baseUrl ?? '(default endpoint)'}  ${p.hasKey ? `key …${p.keyHint}` : 'no key'}`;
}

function describeSetting(s: AgentSetting): string {
  return `${s.agentId}: provider ${s.providerId ?? 'none (inherited environment)'}${s.endpoint ? ` at ${s.endpoint}` : ''}, model ${s.model ?? 'the agent\'s default'}${s.modeId ? `, mode ${s.modeId}` : ''}`;
}

function describeEndpoint(e: RepositoryEndpoint): string {
  const vars = Object.entries(e.variables)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  const who = e.appliedBy === 'atrium' ? (e.approved ? 'approved: new sessions use it' : 'withheld until approved') : 'the agent reads it itself once the folder is trusted';
  return `repository endpoint ${e.path} (${e.tool}): ${vars}  [${who}]  digest ${e.digest}`;
}
