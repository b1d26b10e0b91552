import type { ExtensionCatalog } from '../extensions/types';
import type { FileAccess } from '../files/scan';
import type { ExtensionsTrust } from '../extensions/build';
import type { RuleCatalog } from '../rules/catalog';
import type { RulesTrust } from '../rules/trustMode';

/**
 * The values a workspace resource bundle carries, by member key (seed §1.1). The rule catalog is
 * the first member; other members add theirs here (skills, commands, hooks…) and register a
 * {@link ResourceMemberFactory} in `members.ts`. Every value must be immutable: a rebuild replaces
 * it, so snapshots never change.
 */
export interface ResourceValues {
  rules: RuleCatalog;
  /** Skills, commands, subagents, plugins, MCP/LSP servers, output styles. */
  extensions: ExtensionCatalog;
}

/**
 * Restricted mode's question as the bundle's members ask it (answered by the trust gate above,
 * `trust/gate.ts`, and passed in): may project resources under an absolute `dir` be activated?
 */
export type ResourcesTrust = RulesTrust & ExtensionsTrust;

/** Member keys. */
export type ResourceKey = keyof ResourceValues;

/** What a member factory gets to build its value. */
export interface ResourceMemberContext {
  /** Canonical workspace folder (the cache key). */
  workspaceDir: string;
  /** Home directory for user-level resources (never read `os.homedir()` inside members). */
  homeDir: string;
  /** Restricted mode's answer for project resources. */
  trustGate: ResourcesTrust;
  /**
   * The initial build's scan (`files/scan.ts`), shared by every member: the workspace is listed once
   * and each file read once however many members discover in it. Only valid during `create`;
   * later builds get their own scan (`refresh`, `applyChanges`).
   */
  files: FileAccess;
}

/** What to watch for a member (absolute paths). */
export interface WatchSpec {
  /** Folders watched with every descendant. */
  recursive: string[];
  /** Folders watched one level deep, and single files. */
  shallow: string[];
  /** Paths to skip below the watched folders. */
  ignored(absolute: string): boolean;
}

/** A live member of a bundle: an immutable value that is replaced when its files change. */
export interface ResourceMember<V> {
  /** The current immutable value. */
  readonly value: V;
  /** A value for a session snapshot (immutable; may share frozen data with `value`). */
  snapshot(): V;
  /** Paths whose changes matter, or null when the member watches nothing. */
  watchSpec(): Promise<WatchSpec | null>;
  /**
   * Applies a batch of changed absolute paths. Resolves `{replaced, notify}`: `replaced` when
   * `value` is a new object, `notify` when clients should be told (e.g. a rule changed).
   * `files` is the batch's scan, shared by every member for this batch only (an incremental
   * update re-reads the changed files through it, so each is read once per batch).
   * Must never reject.
   */
  applyChanges(paths: ReadonlySet<string>, files: FileAccess): Promise<{ replaced: boolean; notify: boolean }>;
  /** Cheap check run on every resolve: true when the value must be rebuilt (e.g. trust changed). */
  isStale(): boolean;
  /**
   * Rebuilds from scratch, listing and reading through `files` (the rebuild's scan, shared by every
   * member rebuilt at the same time). May reject; the previous value is then kept.
   */
  refresh(files: FileAccess): Promise<void>;
  /** Releases what the member holds. Idempotent. */
  dispose(): void;
}

/** Builds one member for a new bundle; a rejection fails the bundle's initialisation. */
export interface ResourceMemberFactory<K extends ResourceKey = ResourceKey> {
  readonly key: K;
  create(context: ResourceMemberContext): Promise<ResourceMember<ResourceValues[K]>>;
}

/** An immutable session snapshot of a bundle (seed §1.3 snapshot). */
export type WorkspaceResourcesSnapshot = Readonly<ResourceValues> & {
  readonly kind: 'snapshot';
  /** Canonical workspace folder. */
  readonly root: string;
  /** Cache generation and bundle version the snapshot was taken from. */
  readonly generation: number;
  readonly version: number;
  readonly takenAt: string;
};

/** `stats()` of the cache (seed §1.3). */
export interface WorkspaceResourceStats {
  capacity: number;
  activeCapacity: number;
  entries: number;
  initialized: number;
  inFlight: number;
  activeUsers: number;
}
