/**
 * Whether bash may run code while evaluating `expression` as arithmetic. Bash evaluates the value of every
 * variable named in an arithmetic context as an expression itself, and evaluates array subscripts there, so
 * `a[$(cmd)]` held in a variable runs `cmd`. Safe: numbers, operators, and variables that never got a value
 * other than an integer in this command line (`tainted` holds the others); no subscripts, quotes or substitutions.
 */
export function arithmeticIsSafe(expression: string, tainted: ReadonlySet<string>): boolean {
  let rest = expression.replace(/\$\{?([A-Za-z_]\w*|[0-9]|[#?$!])\}?/g, (_, name: string) => {
    if (/^[#?$!]$/.test(name)) return '0';
    return tainted.has(name) || /^\d$/.test(name) ? '\u0000' : name;
  });
  if (!/^[\s\w+\-*/%<>=!&|^~?:(),;#]*$/.test(rest)) return false;
  rest = rest.replace(/\b\d+#\w+\b/g, '0');
  for (const name of rest.match(/(?<![\w#])[A-Za-z_]\w*/g) ?? []) if (tainted.has(name)) return false;
  return true;
}

/** Whether an assigned value leaves a variable safe to name in arithmetic: a literal integer. */
export function isIntegerLiteral(value: string | null): boolean {
  return value !== null && /^\s*-?\d+\s*$/.test(value);
}
