/**
 * Environment variables whose value can make programs load or run code, or change which program or
 * directory a command resolves to: loader and interpreter options (`LD_*`, `DYLD_*`, `NODE_OPTIONS`,
 * `PYTHONPATH`, `PERL5OPT`, `RUBYOPT`, `LUA_INIT`, `JAVA_TOOL_OPTIONS`, ...), shell start-up and
 * behaviour (`BASH_ENV`, `ENV`, `ZDOTDIR`, `SHELLOPTS`, `BASHOPTS`, `PS4`, exported `BASH_FUNC_*`
 * functions, `CDPATH`, `PROMPT_COMMAND`), `PATH`, git configuration and helper programs
 * (`GIT_CONFIG_*`, `GIT_SSH_COMMAND`, pagers, `LESSOPEN`), npm configuration.
 */
const CODE_LOADING_ENV =
  /^(NODE_OPTIONS|NODE_PATH|LD_.+|DYLD_.+|GCONV_PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONUSERBASE|PYTHONWARNINGS|PERL5OPT|PERL5LIB|PERLLIB|PERL5DB|RUBYOPT|RUBYLIB|GEM_PATH|GEM_HOME|BUNDLE_GEMFILE|LUA_INIT(_.+)?|LUA_PATH(_.+)?|LUA_CPATH(_.+)?|CLASSPATH|DOTNET_STARTUP_HOOKS|PHPRC|PHP_INI_SCAN_DIR|BASH_ENV|ENV|ZDOTDIR|SHELLOPTS|BASHOPTS|PS4|BASH_FUNC_.+|CDPATH|PROMPT_COMMAND|PATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|GIT_SSH|GIT_SSH_COMMAND|GIT_EXEC_PATH|GIT_CONFIG_.+|GIT_PAGER|PAGER|LESSOPEN|LESSCLOSE|SHELL|EDITOR|VISUAL|npm_config_.*|NPM_CONFIG_.*)$/;

/**
 * Names (never values) of variables in `names` that can make programs load code. Shared by the hook
 * and MCP danger checks and the trust review's settings and server items (one list, one answer).
 */
export function codeLoadingEnvNames(names: readonly string[]): string[] {
  return names.filter((n) => CODE_LOADING_ENV.test(n));
}
