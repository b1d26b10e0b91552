/** Extensions in the workspace resource bundle (issue 5). */
export { buildExtensions, type BuildContext } from './build';
export { ExtensionsService, findCommand } from './service';
export { readSkillBody } from './skills/body';
export { LAYERS, applyPrecedence, resolveName, type Layer } from './precedence';
export type * from './types';
