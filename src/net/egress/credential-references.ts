// How a header written by a config or a tool call (an MCP server's headers, web_fetch's) names a session credential:
// `${credential.NAME}`, NAME the credential's environment name. Commands name it `$NAME` instead.

const CREDENTIAL = /\$\{credential\.([A-Za-z_][A-Za-z0-9_]*)\}/g;
const CREDENTIAL_START = '${credential.';

/** Whether a string holds `${credential.`, well-formed or not. */
export function holdsCredentialReference(text: string): boolean {
  return text.includes(CREDENTIAL_START);
}

/** How headers (an MCP server's, web_fetch's) name the session credential NAME. */
export function credentialReference(name: string): string {
  return `\${credential.${name}}`;
}

/** The session credentials a string names as `${credential.NAME}`, in order, each once. */
export function credentialsNamedIn(text: string): string[] {
  return [...new Set([...text.matchAll(CREDENTIAL)].map((match) => match[1] ?? ''))];
}

/** Whether some `${credential.` in a string does not begin a well-formed `${credential.NAME}` (NAME an environment name). */
export function hasMalformedCredentialReference(text: string): boolean {
  return text.split(CREDENTIAL_START).length - 1 !== [...text.matchAll(CREDENTIAL)].length;
}

/** `text` with each `${credential.NAME}` replaced by `placeholders[NAME]`; unknown names stay as they are. */
export function resolveCredentialReferences(text: string, placeholders: Readonly<Record<string, string>>): string {
  return text.replace(CREDENTIAL, (match, name: string) => (Object.hasOwn(placeholders, name) ? (placeholders[name] ?? match) : match));
}
