/** Help texts, one per command. */
export const USAGE = {
  main: `Usage: toolwarden <command> [options]

Commands:
  demo      run a demo session on a temporary workspace: allowed and refused calls side by side
  doctor    check the OS sandbox: start one and prove each property from inside it
  explain   say what a tool call would get under a config's rules, and which rule decides
  serve     expose a session as an MCP server (stdio), or many users' sessions over Streamable HTTP

Run 'toolwarden <command> --help' for a command's options.
`,
  demo: `Usage: toolwarden demo

Creates a temporary workspace (files, a symlink to outside, .git/hooks), opens a session with the file
tools and bash, makes allowed and refused calls, prints them as a table, and removes the workspace.
`,
  doctor: `Usage: toolwarden doctor [--json]

Finds bwrap, starts one sandbox with a session's layout and proves from inside it: /proc/sys is read-only, the
network is absent, a file outside is invisible, a blocked path is unwritable, no capabilities, no new
privileges, a seccomp filter, a process limit. Prints each property with pass/FAIL; exits 1 if any fails.
  --json            print the report as JSON
`,
  explain: `Usage: toolwarden explain --tool T --args JSON [--config FILE] [--user U] [--workspace DIR] [--sandbox MODE]

  --tool T          tool name (read_file, bash, mcp__<server>__<tool>, ...)
  --args JSON       the call's arguments, a JSON object
  --config FILE     serve config: host rules from "permissions", session rules from tenants.<user>.permissions
  --user U          take the session rules (and default workspace) from this user's tenant
  --workspace DIR   check paths and parse commands as a session on DIR would (path guard, shell check)
  --sandbox MODE    auto | required | off: whether bash's static check may count on the OS sandbox (default auto)
`,
  serve: `Usage:
  toolwarden serve --workspace DIR --tools read_file,grep [--read-root DIR]... [--mcp ID]... [--user U]
                   [--config FILE] [--sandbox MODE]
  toolwarden serve --http --config FILE [--port N] [--host H] [--allow-origin ORIGIN]... [--sandbox MODE]

stdio (default): one session served as an MCP server on stdin/stdout; logs go to stderr.
  --workspace DIR   the session's workspace root (default: the user's tenant workspace with --user)
  --tools LIST      comma-separated tools to expose; none when omitted (closed by default)
  --read-root DIR   an extra read-only root (repeatable)
  --mcp ENTRY       an MCP entry from the config's mcpServers: 'id', 'id:tool' or 'id:pattern*' (repeatable)
  --user U          act as this config user: bound to their tenant (workspace and read roots may only narrow it),
                    with their session rules
  --config FILE     JSON config (see docs/serve-config.md): MCP servers, rules, tenants, sandbox, audit
  --sandbox MODE    auto | required | off (overrides the config)

HTTP (--http): Streamable HTTP at /mcp; each bearer token in the config maps to a user whose tenant sets the
workspace, tools and MCP allowlist; each MCP session gets its own toolwarden session.
  --port N          TCP port (default 3333; 0 picks a free one)
  --host H          interface to bind (default 127.0.0.1); on loopback, a Host header that is not a loopback
                    name with this port is refused (403, DNS-rebinding protection)
  --allow-origin O  a browser origin allowed besides the server's own (repeatable); any other Origin gets 403
`,
} as const;
