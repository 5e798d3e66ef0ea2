/**
 * Every string inside `value` (deeply: arrays and plain objects) with each secret's value replaced by its
 * `${user.<name>}` placeholder, longest value first, so a server quoting a credential back (an echo, an error body)
 * never hands it to the model, the audit or the client. Values that hold no secret come back as they are.
 * @example redactSecrets('bad token t0k3n', { token: 't0k3n' }) // 'bad token ${user.token}'
 */
export function redactSecrets<T>(value: T, secrets: Readonly<Record<string, string>>): T {
  const pairs = Object.entries(secrets).filter(([, secret]) => secret !== '').sort(([, a], [, b]) => b.length - a.length);
  if (pairs.length === 0) return value;
  const redactText = (text: string): string => pairs.reduce((acc, [name, secret]) => acc.split(secret).join(`\${user.${name}}`), text);
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return redactText(item);
    if (Array.isArray(item)) return item.map(walk);
    if (typeof item === 'object' && item !== null && Object.getPrototypeOf(item) === Object.prototype) {
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]));
    }
    return item;
  };
  return walk(value) as T;
}
