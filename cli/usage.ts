/** Help texts, one per command. */
export const USAGE = {
  main: `Usage: toolwarden <command> [options]

Commands:
  demo      run a demo session on a temporary workspace: allowed and refused calls side by side
  doctor    check the OS sandbox: start one and prove each property from inside it
  explain   say what a tool call would get under a config's rules, and which rule decides
  keys      generate an Ed25519 key pair for capability tokens any serve node can verify
  mint      sign a capability token for a user of a config with the private key
  serve     expose a session as an MCP server (stdio), or many users' sessions over Streamable HTTP

Run 'toolwarden <command> --help' for a command's options, 'toolwarden --version' for the version.
`,
  demo: `Usage: toolwarden demo [--json]

Creates a temporary workspace (files, a symlink to outside, .git/hooks), opens a session with the file
tools and bash and a scripted approver, makes allowed, approved and refused calls, prints each with its full
reason (wrapped to the terminal), and removes the workspace.
  --json            print the calls as JSON: [{ call, outcome, detail, note? }]
`,
  doctor: `Usage: toolwarden doctor [--json]

Finds bwrap, starts one sandbox with a session's layout and proves from inside it: /proc/sys is read-only, the
network is absent, a file outside is invisible, a blocked path is unwritable, no capabilities, no new
privileges, a seccomp filter, a process limit. Prints each property with pass/FAIL; exits 1 if any fails.
  --json            print the report as JSON
`,
  explain: `Usage: toolwarden explain --tool T --args JSON [--config FILE] [--user U] [--tools a,b] [--mcp ENTRY]...
                          [--workspace DIR] [--sandbox MODE] [--json]

A tool the session's capability lacks is refused (TOOL_NOT_ALLOWED) before any rule, as a call is.
  --tool T          tool name (read_file, bash, mcp__<server>__<tool>, ...)
  --args JSON       the call's arguments, a JSON object
  --config FILE     serve config: host rules from "permissions", session rules from tenants.<user>.permissions
  --user U          take the session rules, tools, MCP entries and default workspace from this user's tenant
  --tools a,b       the session's tools (within the tenant's with --user); with none of --tools, --mcp and --user,
                    the session is taken to have every built-in tool and MCP server, and the rules alone decide
  --mcp ENTRY       an MCP entry of the session: 'id', 'id:tool' or 'id:pattern*' (repeatable)
  --workspace DIR   check paths and parse commands as a session on DIR would (path guard, shell check)
  --sandbox MODE    auto | required | off: whether bash's static check may count on the OS sandbox (default auto)
  --json            print the decision as JSON: { tool, args, decision, ... }
`,
  keys: `Usage: toolwarden keys generate --out DIR [--kid ID]

Writes DIR/token-private.jwk.json (mode 0600: the control plane mints with it) and DIR/token-public.jwks.json (give it
to every serve node as "tokenPublicKeys"; append a new key's entries to rotate). Never overwrites a key file.
  --out DIR         where the two files go (created if missing)
  --kid ID          the key id minted tokens carry (default: the key's RFC 7638 thumbprint)
`,
  mint: `Usage: toolwarden mint --config FILE --private-key FILE --user U [--tools a,b] [--workspace DIR] [--ttl S]

Prints a capability token for U: within U's tenant in the config (its workspace and tools unless narrowed), with its
session rules, signed with the Ed25519 private key. A serve node whose config names the public key in
"tokenPublicKeys" accepts it as a bearer token. The paths it names must exist where it is minted.
  --config FILE        the serve config the user's tenant comes from
  --private-key FILE   a private JWK from 'toolwarden keys generate'
  --user U             the user the token acts for
  --tools a,b          narrow the tools (default: the tenant's)
  --workspace DIR      narrow the workspace to a directory inside the tenant's
  --ttl S              lifetime in seconds (default 3600)
`,
  serve: `Usage:
  toolwarden serve --workspace DIR --tools read_file,grep [--read-root DIR]... [--mcp ID]... [--user U]
                   [--config FILE] [--sandbox MODE]
  toolwarden serve --http --config FILE [--port N] [--host H] [--allow-origin ORIGIN]... [--sandbox MODE]
                   [--shutdown-grace-ms MS]

stdio (default): one session served as an MCP server on stdin/stdout; logs go to stderr.
  --workspace DIR   the session's workspace root (default: the user's tenant workspace with --user)
  --tools LIST      comma-separated tools to expose; none when omitted (closed by default)
  --read-root DIR   an extra read-only root (repeatable)
  --mcp ENTRY       an MCP entry from the config's mcpServers: 'id', 'id:tool' or 'id:pattern*' (repeatable)
  --user U          act as this config user: bound to their tenant (workspace and read roots may only narrow it),
                    with their session rules
  --config FILE     JSON config (see docs/serve-config.md): MCP servers, rules, tenants, limits, sandbox, audit
  --sandbox MODE    auto | required | off (overrides the config)

HTTP (--http): Streamable HTTP at /mcp; each bearer token in the config maps to a user whose tenant sets the
workspace, tools and MCP allowlist; each MCP session gets its own toolwarden session.
  --port N          TCP port (default 3333; 0 picks a free one)
  --host H          interface to bind (default 127.0.0.1); on loopback, a Host header that is not a loopback
                    name with this port is refused (403, DNS-rebinding protection)
  --allow-origin O  a browser origin allowed besides the server's own (repeatable); any other Origin gets 403
  --shutdown-grace-ms MS  on SIGINT/SIGTERM, how long requests in flight may finish before their sessions close
                    (0 to 3600000; overrides the config's shutdownGraceMs; default 10000)
`,
} as const;
