import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hasCorpus, materialize, NO_CORPUS_REASON } from '../../support/corpus';
import { layFixture, layKitchenSink } from '../../support/fixtureTree';

/** One place a spec's workspace comes from: the project's fixture (always there) or a corpus entry. */
export interface WorkspaceSource {
  /** Shown in the test name. */
  name: string;
  /** Why the test is skipped here (the corpus is absent), or null when it runs. */
  skipReason: string | null;
  /** Lays the workspace down in a new temp folder; returns its path. */
  make(): string;
}

const fresh = () => fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-ws-'));
const corpus = (entry: Parameters<typeof materialize>[0]) => ({ skipReason: hasCorpus ? null : NO_CORPUS_REASON, make: () => materialize(entry) });

/** A monorepo with nested rules, hooks running .claude/hooks scripts and .mcp.json servers: the fixture and PlatformPlatform. */
export const MONOREPO: readonly WorkspaceSource[] = [
  { name: 'fixture platform-monorepo', skipReason: null, make: () => layFixture('platform-monorepo', fresh()) },
  { name: 'corpus PlatformPlatform', ...corpus('platformplatform__PlatformPlatform') },
];

/** Every format in one workspace: the fixture (with its 1 MiB rule) and the corpus entry. */
export const KITCHEN_SINK: readonly WorkspaceSource[] = [
  { name: 'fixture kitchen-sink', skipReason: null, make: () => layKitchenSink(fresh()) },
  { name: 'corpus synthetic__kitchen-sink', ...corpus('synthetic__kitchen-sink') },
];

/** A small repository with an AGENTS.md: the fixture links-as-text and Kibnet/Unlimotion. */
export const SMALL_REPO: readonly WorkspaceSource[] = [
  { name: 'fixture links-as-text', skipReason: null, make: () => layFixture('links-as-text', fresh()) },
  { name: 'corpus Unlimotion', ...corpus('Kibnet__Unlimotion') },
];
