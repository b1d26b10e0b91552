import path from 'node:path';
import type { Command } from 'commander';
import type { Workspace } from '../../../shared/contract';
import { findWorkspace } from '../workspaceRef';
import { CliError, runWithCore, runWithEngine, withGlobalOptions, type GlobalOptions } from '../context';

/** `atrium workspace add|list|remove|rename`: the workspace list. */
export function registerWorkspaceCommands(program: Command): void {
  const ws = program.command('workspace').description('manage the workspace list');

  // an already listed folder given with --name is renamed (and says so): the name asked for is the name it gets
  withGlobalOptions(ws.command('add <dir>').description('add a folder (returns the existing workspace if already listed; --name then renames it)'))
    .option('--name <name>', 'display name (default: the folder name); renames a workspace already listed')
    .action((dir: string, opts: GlobalOptions & { name?: string }) =>
      runWithEngine(opts, async ({ dispatcher, print }) => {
        if (opts.name !== undefined) checkName(opts.name, '--name must not be empty: give a display name, or leave --name out to use the folder name.');
        const added = await dispatcher.call('workspaces.add', { path: path.resolve(dir), name: opts.name });
        const { created } = added;
        let workspace = added.workspace;
        const previousName = workspace.name;
        const renamed = !created && opts.name !== undefined && opts.name.trim() !== workspace.name;
        if (renamed) workspace = (await dispatcher.call('workspaces.rename', { id: workspace.id, name: opts.name! })).workspace;
        print({ workspace, created, renamed }, () => `${created ? 'Added' : renamed ? `Already listed, renamed from "${previousName}"` : 'Already listed'}: ${describe(workspace)}`);
      }),
    );

  // Straight from the workspace service (the engine core): the same list `workspaces.list` answers, without loading the request contract.
  withGlobalOptions(ws.command('list').description('list workspaces')).action((opts: GlobalOptions) =>
    runWithCore(opts, ({ core, print }) => {
      const workspaces = core.workspaces.list();
      print({ workspaces }, () => (workspaces.length ? workspaces.map(describe).join('\n') : 'No workspaces yet. Add one with: atrium workspace add DIR'));
    }),
  );

  withGlobalOptions(ws.command('remove <ref>').description("forget a workspace (never touches its files)")).action((idOrDir: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      const found = findWorkspace(engine.workspaces, idOrDir);
      await dispatcher.call('workspaces.remove', { id: found.id });
      print({ removed: found }, () => `Removed ${describe(found)} (its files are untouched)`);
    }),
  );

  withGlobalOptions(ws.command('rename <ref> <name>').description('change the display name')).action((idOrDir: string, name: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      checkName(name, 'The new name must not be empty: give a display name (renaming never touches the folder).');
      const found = findWorkspace(engine.workspaces, idOrDir);
      const { workspace } = await dispatcher.call('workspaces.rename', { id: found.id, name });
      print({ workspace }, () => `Renamed: ${describe(workspace)}`);
    }),
  );
}

/** Longest display name `workspaces.add`/`workspaces.rename` accept, in characters. */
const MAX_NAME = 200;

/**
 * Refuses a display name the workspace requests would refuse (empty or blank after trimming, longer
 * than {@link MAX_NAME}) with a usage error (exit 2) that says what to type, instead of the
 * request's schema message. `ifEmpty` is the whole message for an empty name.
 * @throws CliError (exit code 2)
 */
function checkName(name: string, ifEmpty: string): void {
  if (name.trim() === '') throw new CliError(ifEmpty, 2);
  // untrimmed, as `workspaces.add` counts it
  if (name.length > MAX_NAME) throw new CliError(`The display name is ${name.length} characters long; it may have at most ${MAX_NAME}. Give a shorter one.`, 2);
}

function describe(w: Workspace): string {
  const flags = [w.missing ? 'missing' : null, w.trustRoot !== w.path ? `trust root ${w.trustRoot}` : null].filter(Boolean);
  return `${w.id}  ${w.name}  ${w.path}${flags.length ? `  (${flags.join(', ')})` : ''}`;
}

