export { bashGrammarPath, bashParser } from './grammar';
export { parseShell, parseShellSync } from './parse';
export type { Redirect, ShellScript, SimpleCommand, Word, WordPart } from './types';
export { literalText } from './words';
export { expandWord, type ExpandEnv, type Expanded } from './expand';
export { isCommandSeparator, isRedirection, lexShell, type ShellItem, type ShellLex, type ShellWord } from './lex';
export { argWord, commandArgvs, knownText, unwrappedForms, type ArgPiece, type ArgWord } from './argv';
export { posixShellJoin, shellQuote } from './quote';
