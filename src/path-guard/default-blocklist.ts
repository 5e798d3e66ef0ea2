/**
 * One entry of the blocklist: files and directories that run code later (when a shell starts, when git runs,
 * when a package manager, an editor or an agent opens the folder) or hold credentials. The one source for the file
 * tools, the static shell check, the OS sandbox and the documentation's table.
 */
export interface BlockedEntry {
  /**
   * Consecutive path segments, matched case-insensitively; the entry covers the match and everything under it. A
   * `**` segment stands for zero or more segments: `['.git', 'modules', '**', 'hooks']` covers `.git/modules/a/b/hooks`.
   */
  readonly segments: readonly string[];
  /**
   * `any`: at any depth, the workspace root's own top level included. `nested`: everywhere except directly in the
   * workspace root (the top repository's `.git/config` is the host's own; a nested repository's is a trap).
   */
  readonly depth: 'any' | 'nested';
  /**
   * `non-directory`: the entry covers the matched path itself when it is a file or a symlink (kind `other`), and
   * nothing under a directory of that name.
   */
  readonly only?: 'non-directory';
  /**
   * `false`: the sandbox covers no missing one with an empty directory. For a file that a program reads where it
   * lies, in the sandbox and on the host while a session's standing sandbox holds its stub: an empty directory there
   * breaks that program (Yarn fails on a `.yarnrc.yml` directory). The check after each command still finds one a
   * command made and removes it.
   */
  readonly stub?: false;
  /** Why it is blocked: what runs, and where the tool looks for it (which is why an entry applies at any depth). */
  readonly why: string;
}

const SHELL_STARTUP = [
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zprofile', '.zshenv', '.zlogin', '.zlogout',
  '.kshrc', '.mkshrc', '.cshrc', '.tcshrc', '.login', '.logout',
];

// Every entry below applies at any depth unless it says `nested`: each tool reads its file in whatever folder it runs
// in or opens (several walk up the parents too), and a subfolder of the workspace is a folder the host may open, run
// a package manager in, or keep a home directory in; only the top repository's own git files are the host's.
/** The default blocklist. Extend or relax it per session with the `blockedPaths` option. */
export const DEFAULT_BLOCKLIST: readonly BlockedEntry[] = [
  { segments: ['.ssh'], depth: 'any', why: 'SSH keys and authorized_keys grant logins' },
  { segments: ['.aws'], depth: 'any', why: 'cloud credentials; credential_process in its config runs a program' },
  // git's
  { segments: ['.git', 'hooks'], depth: 'any', why: 'git runs hooks as code' },
  // A submodule's repository lives under the superproject's .git/modules/<name> (a name may hold slashes; submodules
  // of submodules nest under modules/ again): git runs its hooks in the submodule's work tree.
  { segments: ['.git', 'modules', '**', 'hooks'], depth: 'any', why: "git runs a submodule repository's hooks as code" },
  { segments: ['.husky'], depth: 'any', why: 'husky keeps git hooks there (core.hooksPath): git runs them as code' },
  { segments: ['.git', 'config'], depth: 'nested', why: "a nested repository's config runs code (core.fsmonitor, core.hooksPath, aliases)" },
  // What else git reads as configuration or hooks in a repository: a nested one is the writer's to make.
  { segments: ['.git', 'config.worktree'], depth: 'nested', why: "a nested repository's per-worktree config runs code like its config" },
  { segments: ['.git', 'commondir'], depth: 'nested', why: 'commondir makes git take config and hooks from another directory' },
  { segments: ['.git', 'worktrees'], depth: 'nested', why: "a nested repository's worktree entries carry commondir, gitdir and config of their own" },
  { segments: ['.git', 'modules'], depth: 'nested', why: "a nested repository's submodule repositories have config and hooks of their own" },
  {
    segments: ['.git'], depth: 'any', only: 'non-directory',
    why: 'a .git file (gitdir: ...) or symlink makes git use another directory as the repository, whose hooks and config run code',
  },
  { segments: ['.gitconfig'], depth: 'any', why: 'git configuration runs code (core.fsmonitor, aliases, pagers)' },
  { segments: ['.config', 'git'], depth: 'any', why: "git's XDG global config runs code (core.fsmonitor, aliases, pagers); its credentials file holds secrets" },
  // shells, direnv, REPLs
  ...SHELL_STARTUP.map((name): BlockedEntry => ({ segments: [name], depth: 'any', why: 'shell start-up files run when a shell starts (or a login shell exits)' })),
  { segments: ['.bash_aliases'], depth: 'any', why: "the default .bashrc of Debian and Ubuntu sources it when bash starts" },
  { segments: ['.config', 'fish'], depth: 'any', why: 'fish runs config.fish and conf.d/, and autoloads functions/, when it starts' },
  { segments: ['.envrc'], depth: 'any', why: 'direnv runs it on entering the directory' },
  { segments: ['.direnvrc'], depth: 'any', why: 'direnv sources it before every .envrc' },
  { segments: ['.config', 'direnv'], depth: 'any', why: 'direnv sources direnvrc and lib/ before every .envrc; direnv.toml can allow .envrc files unasked' },
  { segments: ['.irbrc'], depth: 'any', stub: false, why: 'irb loads it as Ruby from the home and the current folder' },
  { segments: ['.pryrc'], depth: 'any', stub: false, why: 'pry loads it as Ruby from the home and the current folder' },
  // package managers
  { segments: ['.npmrc'], depth: 'any', stub: false, why: "npm and pnpm read the project's and the user's: node-options and script-shell run code at the next npm run" },
  { segments: ['.yarnrc'], depth: 'any', stub: false, why: 'Yarn 1 merges those of the folder and its parents: yarn-path makes yarn run another file' },
  { segments: ['.yarnrc.yml'], depth: 'any', stub: false, why: 'Yarn 2+ reads those of the folder and its parents: yarnPath and plugins are code it runs' },
  { segments: ['.pnpmfile.cjs'], depth: 'any', stub: false, why: 'pnpm loads it beside the lockfile: its hooks run at every install' },
  { segments: ['bunfig.toml'], depth: 'any', stub: false, why: "Bun reads the project's: preload scripts run before every bun run and bun test" },
  { segments: ['.bunfig.toml'], depth: 'any', stub: false, why: "Bun reads the user's: preload scripts run before every bun run and bun test" },
  { segments: ['pip.conf'], depth: 'any', stub: false, why: "pip reads a virtualenv's and the user's: index-url and find-links pick packages whose build code it runs" },
  { segments: ['pip.ini'], depth: 'any', stub: false, why: "pip reads a virtualenv's and the user's (Windows): index-url and find-links pick packages whose build code it runs" },
  { segments: ['.cargo'], depth: 'any', why: 'Cargo reads its config.toml in the folder and every parent: rustc-wrapper, runners, linkers and aliases run programs' },
  { segments: ['.bundle', 'config'], depth: 'any', stub: false, why: "Bundler reads the application's: BUNDLE_GEMFILE names the Ruby file it evaluates" },
  // agents and editors: MCP servers, hooks, tasks and rules of the folder they open
  { segments: ['.mcp.json'], depth: 'any', why: 'agent MCP configuration starts servers' },
  { segments: ['.claude'], depth: 'any', why: 'agent configuration runs hooks and commands' },
  { segments: ['.vscode'], depth: 'any', why: 'editor tasks and settings run code when the folder opens; mcp.json starts servers' },
  { segments: ['.idea'], depth: 'any', why: 'IDE run configurations run code' },
  { segments: ['.cursor'], depth: 'any', why: 'Cursor starts the MCP servers of mcp.json and runs the commands of hooks.json; rules steer its agent' },
  { segments: ['.gemini'], depth: 'any', why: 'Gemini CLI settings start MCP servers and tool commands and run hooks; commands/ run shell' },
  { segments: ['.continue'], depth: 'any', why: 'Continue starts the MCP servers of its config and mcpServers/; rules steer its agent' },
  { segments: ['.continuerc.json'], depth: 'any', stub: false, why: "Continue merges it into the workspace's configuration, MCP servers included" },
  { segments: ['.clinerules'], depth: 'any', why: 'Cline runs the scripts of its hooks/ on task and tool events; rules steer its agent' },
  { segments: ['.cline'], depth: 'any', why: 'Cline runs its hooks on task and tool events; rules and workflows steer its agent' },
  { segments: ['.windsurf'], depth: 'any', why: 'Windsurf runs the commands of hooks.json on Cascade events; rules and workflows steer it' },
  { segments: ['.codeium'], depth: 'any', why: "Windsurf's user folder: mcp_config.json starts MCP servers, hooks.json runs commands" },
  { segments: ['.zed'], depth: 'any', why: 'Zed project settings start context (MCP) and language servers; tasks.json holds commands' },
  { segments: ['.roo'], depth: 'any', why: 'Roo Code starts the MCP servers of mcp.json; rules steer its agent' },
  { segments: ['.kiro'], depth: 'any', why: 'Kiro starts the MCP servers of settings/mcp.json and runs its hooks' },
  { segments: ['.codex'], depth: 'any', why: 'Codex starts the MCP servers of config.toml' },
  { segments: ['.amazonq'], depth: 'any', why: 'Amazon Q starts the MCP servers of mcp.json and default.json' },
  { segments: ['.opencode'], depth: 'any', why: 'opencode starts the MCP servers of its config and loads its plugins as code' },
  { segments: ['opencode.json'], depth: 'any', stub: false, why: 'opencode starts the local MCP servers it names' },
  { segments: ['opencode.jsonc'], depth: 'any', stub: false, why: 'opencode starts the local MCP servers it names' },
  { segments: ['.aider.conf.yml'], depth: 'any', stub: false, why: 'aider reads those of home, repository root and folder: lint-cmd and test-cmd run after edits' },
  { segments: ['.github', 'hooks'], depth: 'any', why: 'GitHub Copilot agents run the commands of hooks/*.json on agent events' },
  { segments: ['.devcontainer'], depth: 'any', why: "Dev Containers run devcontainer.json's initializeCommand on the host when the folder opens" },
  { segments: ['.devcontainer.json'], depth: 'any', stub: false, why: 'Dev Containers run its initializeCommand on the host when the folder opens' },
];
