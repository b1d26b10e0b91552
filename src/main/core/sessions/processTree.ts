// Transitional re-export: the process-tree killer lives in process/ (platform layer). Kept only so
// sessions/liveSession.ts (being split on another branch) keeps compiling; remove once it imports
// ../process/processTree directly.
export { killProcessTree } from '../process/processTree';
