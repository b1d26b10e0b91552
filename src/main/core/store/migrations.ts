import type { Database } from 'better-sqlite3';
import { hooksAcknowledgedMigration, hooksMigration } from '../hooks/schema';
import { sessionsMigration } from '../sessions/schema';
import { sessionPolicyMigration } from '../sessions/workspacePolicy/schema';
import { trustMigration } from '../trust/schema';
import { identityBytesMigration } from '../workspaces/identityMigration';
import { workspacesMigration } from '../workspaces/schema';

/**
 * One schema step. `version` is the value `PRAGMA user_version` holds after `up` ran; versions are
 * consecutive from 1. Each capability owns its schema file and appends its migration here, never
 * edits an earlier one (a shipped migration is immutable: databases in the field already ran it).
 */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

/** Every migration in order. Version N is at index N-1. */
export const MIGRATIONS: readonly Migration[] = [
  workspacesMigration,
  trustMigration,
  sessionsMigration,
  hooksMigration,
  sessionPolicyMigration,
  identityBytesMigration,
  hooksAcknowledgedMigration,
];
