import path from 'node:path';
import { fileIo } from './fileIo';
import { ALWAYS_SKIPPED_DIRS, DEFAULT_MAX_DEPTH, listWorkspaceFiles, type ListWorkspaceFilesOptions, type WorkspaceFileList } from './listWorkspaceFiles';

/** Reads whole files (the one place a build's file contents come from). */
export interface FileReader {
  /**
   * The bytes of a file, links followed. Rejects exactly like `fs.promises.readFile` (`ENOENT`,
   * `EISDIR`, `EACCES`…). The buffer may be shared with other readers of the same build: never modify it.
   */
  readBytes(absolute: string): Promise<Buffer>;
  /** The file decoded as UTF-8, like `fs.promises.readFile(p, 'utf8')` (a BOM is kept, invalid bytes become U+FFFD). */
  readText(absolute: string): Promise<string>;
}

/** `readFile` of {@link fileIo} (queued or blocking as the process is configured). */
const readFileBytes = (absolute: string): Promise<Buffer> => fileIo().readFile(absolute);

/** Lists workspace folders (the answer of {@link listWorkspaceFiles}). */
export interface WorkspaceLister {
  /** The file list of `dir` with `options`, exactly as `listWorkspaceFiles(dir, options)` answers. Callers must not modify the arrays. */
  list(dir: string, options?: ListWorkspaceFilesOptions): Promise<WorkspaceFileList>;
}

/** What a discovery reads through: one listing and one read per file when it is a {@link WorkspaceScan}. */
export interface FileAccess extends FileReader, WorkspaceLister {
  /**
   * The tracked files of the root listing as soon as git has them (root-relative, in git's order,
   * before the depth limit; see `onTracked` of `listWorkspaceFiles`), so reading can start while
   * git still looks for untracked files. Null when there is no such early part (the walk, a
   * stand-in lister, a listing that failed). Optional: absent means null.
   */
  trackedEarly?(): Promise<readonly string[] | null>;
}

/** Lists a folder: `listWorkspaceFiles` or a stand-in (tests count calls). */
export type ListFunction = (root: string, options: ListWorkspaceFilesOptions) => Promise<WorkspaceFileList>;
/** Reads a file's bytes: `fs.promises.readFile` or a stand-in (tests count calls). */
export type ReadFunction = (absolute: string) => Promise<Buffer>;

/**
 * No sharing: every call lists or reads again. The default of functions that are also called on
 * their own (one file, one folder), and for incremental updates that re-read only changed files.
 */
export const directFileAccess: FileAccess = {
  list: (dir, options = {}) => listWorkspaceFiles(dir, options),
  readBytes: (absolute) => readFileBytes(absolute),
  readText: async (absolute) => (await readFileBytes(absolute)).toString('utf8'),
};

/** Options for {@link WorkspaceScan}. */
export interface WorkspaceScanOptions {
  /**
   * The folder listed once: the workspace folder, or the git work tree that contains it (the rule
   * catalog's root). A listing of `workspaceDir` is then derived from the root's listing.
   */
  root: string;
  /** The workspace folder (default `root`); must be `root` or inside the git work tree `root`. */
  workspaceDir?: string;
  /** Depth consumers ask for below `root` and `workspaceDir` (default {@link DEFAULT_MAX_DEPTH}). */
  maxDepth?: number;
  /**
   * Whether the one listing drops tracked files deleted from disk (default false: the rule catalog's
   * choice, half the cost on a large tree). With true, unverified listings are derived too (from
   * `deleted`); with false, a verified listing costs a second listing call.
   */
  verifyExistence?: boolean;
  /** Stand-in for `listWorkspaceFiles` (default: it). */
  lister?: ListFunction;
  /** Stand-in for `fs.promises.readFile` (default: it). */
  reader?: ReadFunction;
}

/**
 * One build's view of the disk: the workspace listed at most once and each file read at most once,
 * however many capabilities discover their kind in it (listing a 100,000-file tree costs as much as
 * the rest of a rule build, and the review, the rules and the extensions read the same files). Created per build (a bundle's initial build, refresh or revalidation, one trust
 * review) and dropped afterwards, so a later build sees later changes.
 *
 * `list(dir, options)` answers what `listWorkspaceFiles(dir, options)` would: the first call lists
 * `root` once (git strategy: `maxDepth` plus the depth of `workspaceDir` below `root`, so the
 * workspace folder's own listing is complete), every later one is derived from that answer — the
 * same list at `root`, the `workspaceDir/` part with the prefix removed, files deeper than asked
 * dropped, deleted tracked files added back for `verifyExistence: false`. Requests that cannot be
 * derived with the same result (another folder, a walk listing of a subfolder, a verified listing
 * from an unverified one, a deeper limit) list directly, memoised by folder and options.
 *
 * `readBytes`/`readText` memoise by absolute path in a Map (one promise per path: concurrent
 * readers share it; a failure is shared too). No extra `stat` is made for any file.
 */
export class WorkspaceScan implements FileAccess {
  readonly root: string;
  readonly workspaceDir: string;
  private readonly maxDepth: number;
  private readonly verifyExistence: boolean;
  private readonly lister: ListFunction;
  private readonly reader: ReadFunction;
  /** Depth of `workspaceDir` below `root` (0 when equal), or -1 when it is not inside. */
  private readonly prefixDepth: number;
  private base: Promise<WorkspaceFileList> | null = null;
  private tracked: Promise<readonly string[] | null> | null = null;
  private readonly listings = new Map<string, Promise<WorkspaceFileList>>();
  private readonly reads = new Map<string, Promise<Buffer>>();

  constructor(options: WorkspaceScanOptions) {
    this.root = path.resolve(options.root);
    this.workspaceDir = path.resolve(options.workspaceDir ?? options.root);
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.verifyExistence = options.verifyExistence ?? false;
    this.lister = options.lister ?? listWorkspaceFiles;
    this.reader = options.reader ?? readFileBytes;
    const rel = posixRelative(this.root, this.workspaceDir);
    this.prefixDepth = rel === null || rel.split('/').some((seg) => ALWAYS_SKIPPED_DIRS.has(seg)) ? -1 : rel === '' ? 0 : rel.split('/').length;
  }

  /** See the class comment. Rejects when the listing of `root` (or a direct one) rejects. */
  list(dir: string, options: ListWorkspaceFilesOptions = {}): Promise<WorkspaceFileList> {
    const absolute = path.resolve(dir);
    const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    const verify = options.verifyExistence ?? true;
    const key = `${absolute}\u0000${maxDepth}\u0000${verify}\u0000${options.strategy ?? ''}`;
    let listing = this.listings.get(key);
    if (!listing) {
      listing = this.derive(absolute, { ...options, maxDepth, verifyExistence: verify });
      this.listings.set(key, listing);
    }
    return listing;
  }

  /** See {@link FileReader.readBytes}; at most one underlying read per absolute path. */
  readBytes(absolute: string): Promise<Buffer> {
    let read = this.reads.get(absolute);
    if (!read) {
      read = this.reader(absolute);
      this.reads.set(absolute, read);
    }
    return read;
  }

  /** See {@link FileReader.readText}; shares the read of {@link readBytes}. */
  async readText(absolute: string): Promise<string> {
    return (await this.readBytes(absolute)).toString('utf8');
  }

  private async derive(dir: string, options: Required<Pick<ListWorkspaceFilesOptions, 'maxDepth' | 'verifyExistence'>> & ListWorkspaceFilesOptions): Promise<WorkspaceFileList> {
    const inWorkspace = dir === this.workspaceDir && this.prefixDepth >= 0;
    if (options.strategy !== undefined || (dir !== this.root && !inWorkspace) || options.maxDepth > this.maxDepth) return this.lister(dir, options);
    const base = await this.baseListing();
    if (dir !== this.root && base.strategy !== 'git') return this.lister(dir, options); // a walk of a subfolder would not see the parent's .gitignore
    let files = base.files;
    let deleted = base.deleted ?? [];
    if (!options.verifyExistence && this.verifyExistence && base.strategy === 'git') {
      if (base.deleted === undefined) return this.lister(dir, options);
      files = mergeSorted(files, base.deleted);
      deleted = [];
    } else if (options.verifyExistence && !this.verifyExistence && base.strategy === 'git') {
      return this.lister(dir, options);
    }
    const prefix = dir === this.root ? '' : `${posixRelative(this.root, dir)}/`;
    const deeper = options.maxDepth + (prefix ? this.prefixDepth : 0) < this.baseDepth();
    const cut: string[] = [];
    const view = (list: string[], keepCut: boolean) => {
      const below = prefix ? withPrefix(list, prefix) : list;
      if (!deeper) return below;
      return below.filter((rel) => {
        if (depthOf(rel) <= options.maxDepth) return true;
        if (keepCut) cut.push(rel);
        return false;
      });
    };
    const listed = view(files, true);
    const beyondBase = base.beyondDepth ? (prefix ? withPrefix(base.beyondDepth, prefix) : base.beyondDepth) : [];
    return { files: listed, strategy: base.strategy, deleted: deleted.length ? view(deleted, false) : [], beyondDepth: mergeSorted(cut, beyondBase) };
  }

  private baseDepth(): number {
    return this.maxDepth + Math.max(0, this.prefixDepth);
  }

  /**
   * See {@link FileAccess.trackedEarly}: starts the root's listing when nothing did yet. Resolves
   * with the tracked part when the lister reports it, else with null once the listing settles.
   */
  trackedEarly(): Promise<readonly string[] | null> {
    void this.baseListing();
    return this.tracked!;
  }

  private baseListing(): Promise<WorkspaceFileList> {
    if (this.base) return this.base;
    let report: (files: readonly string[] | null) => void = () => {};
    this.tracked = new Promise((resolve) => (report = resolve));
    this.base = this.lister(this.root, { maxDepth: this.baseDepth(), verifyExistence: this.verifyExistence, onTracked: (files) => report(files) });
    // a lister that never reports (the walk, a stand-in) or fails: no early part
    this.base.then(
      () => report(null),
      () => report(null),
    );
    return this.base;
  }
}

/** `to` relative to `from` as POSIX, `''` when equal, null when `to` is not inside `from`. */
function posixRelative(from: string, to: string): string | null {
  const rel = path.relative(from, to);
  if (rel === '') return '';
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}

/** Folders above a root-relative path (`a/b/c.md` → 2), as `listWorkspaceFiles` counts depth. */
function depthOf(rel: string): number {
  let depth = 0;
  for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) depth++;
  return depth;
}

/** The entries of a code-unit sorted list below `prefix` (`a/b/`), prefix removed; still sorted. */
function withPrefix(files: readonly string[], prefix: string): string[] {
  let lo = 0;
  let hi = files.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (files[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < files.length && files[i].startsWith(prefix); i++) out.push(files[i].slice(prefix.length));
  return out;
}

/** Two code-unit sorted lists as one sorted list. */
function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  if (b.length === 0) return a as string[];
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i] < b[j] ? a[i++] : b[j++]);
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}
