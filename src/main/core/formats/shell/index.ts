export { bashGrammarPath, bashParser } from './grammar';
export { parseShell, parseShellSync } from './parse';
export type { Redirect, ShellScript, SimpleCommand, Word, WordPart } from './types';
export { literalText } from './words';
export { expandWord, type ExpandEnv, type Expanded } from './expand';
export { isCommandSeparator, isRedirection, lexShell, simpleCommands, splitWords, type ShellItem, type ShellLex, type ShellWord } from './lex';
export { shellQuote } from './quote';
