/** Extensions in the workspace resource bundle. */
export { buildExtensions, type BuildContext } from './build';
export { CommandInvocations, findCommand } from './invocations';
export { readSkillBody } from './skills/body';
export { LAYERS, applyPrecedence, resolveName, type Layer } from './precedence';
export type * from './types';
