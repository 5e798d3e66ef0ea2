import { posix } from 'node:path';
import { syntheticWord } from './commands/api.js';
import { expandGlob } from './glob.js';
import { FILE_TESTS } from './commands/file-ops.js';
import { arithmeticIsSafe, isIntegerLiteral } from './arith.js';
import { assignmentProblem, checkStateBuiltin } from './builtins.js';
import { sameCwds, unchanged, unionCwds, type Cwds, type Outcome } from './cwd.js';
import type { Scope } from './scope.js';
import type { SyntaxNode } from './types.js';
import { heredocOf } from './heredoc/agree.js';
import { walkHeredocBody } from './heredoc/walk-body.js';
import { evaluateWord, type Word } from './words.js';

// Nodes that hand redirects hung on them down to the simple command they end in; any other node applies them itself.
const PASSES_REDIRECTS = new Set(['command', 'redirected_statement', 'list', 'pipeline', 'negated_command']);

/** Walks one node, recording what it does; `trailing` are redirects the parser hung on an enclosing list. */
export function walkNode(scope: Scope, node: SyntaxNode, cwds: Cwds, trailing: readonly SyntaxNode[] = []): Outcome {
  scope.tick();
  // Links made by the commands walked so far are there for whatever comes next (a command's own redirects too,
  // which only makes the check stricter: the lookup without the links is made as well).
  scope.rec.settle();
  if (trailing.length > 0 && !PASSES_REDIRECTS.has(node.type)) {
    for (const redirect of trailing) walkRedirect(scope, redirect, cwds, node.text);
  }
  switch (node.type) {
    case 'command':
      return walkCommand(scope, node, cwds, trailing);
    case 'redirected_statement':
      return walkRedirected(scope, node, cwds, trailing);
    case 'list':
      return walkList(scope, node, cwds, trailing);
    case 'pipeline': {
      const parts = statements(node);
      parts.forEach((part, i) => walkNode(scope, part, cwds, i === parts.length - 1 ? trailing : []));
      return unchanged(cwds);
    }
    case 'negated_command': {
      const inner = statements(node)[0];
      const outcome = inner ? walkNode(scope, inner, cwds, trailing) : unchanged(cwds);
      return { ok: outcome.fail, fail: outcome.ok };
    }
    case 'subshell':
    case 'command_substitution':
    case 'process_substitution':
      walkSequence(scope, statements(node), cwds);
      return unchanged(cwds);
    case 'compound_statement':
      if (node.children[0]?.type === '((') {
        checkArithmetic(scope, node, node.text.slice(2, -2));
        walkChildren(scope, node, cwds);
        return unchanged(cwds);
      }
      return walkSequence(scope, statements(node), cwds);
    case 'program':
    case 'do_group':
    case 'else_clause':
      return walkSequence(scope, statements(node), cwds);
    case 'if_statement':
      return walkIf(scope, node, cwds);
    case 'while_statement':
    case 'for_statement':
    case 'c_style_for_statement':
      return walkLoop(scope, node, cwds);
    case 'case_statement':
      return walkCase(scope, node, cwds);
    case 'function_definition':
      return walkFunction(scope, node, cwds);
    case 'test_command':
      return walkTest(scope, node, cwds);
    case 'declaration_command':
    case 'unset_command':
      return walkDeclaration(scope, node, cwds);
    case 'variable_assignment':
      checkAssignmentNode(scope, node, node.text);
      walkChildren(scope, node, cwds);
      return unchanged(cwds);
    case 'expansion':
      checkExpansion(scope, node);
      walkChildren(scope, node, cwds);
      return unchanged(cwds);
    case 'arithmetic_expansion':
      checkArithmetic(scope, node, node.text.replace(/^\$\(\(|\)\)$|^\$\[|\]$/g, ''));
      walkChildren(scope, node, cwds);
      return unchanged(cwds);
    case 'comment':
      return unchanged(cwds);
    case 'file_redirect': {
      // A redirection reached as a plain child still performs its here-document's expansions.
      const heredoc = heredocOf(node);
      if (heredoc !== undefined) walkHeredocBody(scope, heredoc, cwds, node.text);
      else walkChildren(scope, node, cwds);
      return unchanged(cwds);
    }
    default:
      walkChildren(scope, node, cwds);
      return unchanged(cwds);
  }
}

/** Walks statements in order (`;`, `&`, newlines); a statement sent to the background leaves the cwd alone. */
function walkSequence(scope: Scope, nodes: readonly SyntaxNode[], cwds: Cwds): Outcome {
  let outcome = unchanged(cwds);
  let current = cwds;
  for (const node of nodes) {
    const result = walkNode(scope, node, current);
    outcome = BACKGROUND.has(node) ? unchanged(current) : result;
    current = unionCwds(outcome.ok, outcome.fail);
  }
  return outcome;
}

// Lists nest to the left (`a && b || c` is `(a && b) || c`); flatten them so long chains do not recurse deeply.
function walkList(scope: Scope, node: SyntaxNode, cwds: Cwds, trailing: readonly SyntaxNode[]): Outcome {
  const steps: { op: string; node: SyntaxNode }[] = [];
  let head: SyntaxNode = node;
  while (head.type === 'list') {
    const [left, op, right] = head.children.filter((c) => c.type !== 'comment');
    if (!left || !op || !right) break;
    steps.unshift({ op: op.type, node: right });
    head = left;
  }
  let outcome = walkNode(scope, head, cwds, steps.length === 0 ? trailing : []);
  steps.forEach(({ op, node: right }, i) => {
    const last = i === steps.length - 1 ? trailing : [];
    if (op === '||') {
      const result = walkNode(scope, right, outcome.fail, last);
      outcome = { ok: unionCwds(outcome.ok, result.ok), fail: result.fail };
    } else {
      const result = walkNode(scope, right, outcome.ok, last);
      outcome = { ok: result.ok, fail: unionCwds(outcome.fail, result.fail) };
    }
  });
  return outcome;
}

function walkRedirected(scope: Scope, node: SyntaxNode, cwds: Cwds, trailing: readonly SyntaxNode[]): Outcome {
  const body = node.children.find((c) => c.field === 'body');
  const redirects = [...node.children.filter((c) => c !== body && c.named), ...trailing];
  if (body && PASSES_REDIRECTS.has(body.type)) return walkNode(scope, body, cwds, redirects);
  for (const redirect of redirects) {
    walkRedirect(scope, redirect, cwds, node.text);
    const extra = wordsAfterRedirect(redirect)[0];
    if (extra) scope.rec.unresolvedWord(extra.text, node.text, 'a word after this redirection is an argument the check does not follow here (after a compound command, bash rejects it)');
  }
  return body ? walkNode(scope, body, cwds) : unchanged(cwds);
}

// tree-sitter-bash reads the words after a redirection's target as more targets (`cmd < f a b`); bash gives them
// to the command as arguments.
function wordsAfterRedirect(redirect: SyntaxNode): SyntaxNode[] {
  return redirect.type === 'file_redirect' ? redirect.children.filter((c) => c.field === 'destination').slice(1) : [];
}

function walkCommand(scope: Scope, node: SyntaxNode, cwds: Cwds, trailing: readonly SyntaxNode[]): Outcome {
  const words: Word[] = [];
  const wordNodes: SyntaxNode[] = [];
  const redirects: SyntaxNode[] = [...trailing];
  const argumentNodes: SyntaxNode[] = trailing.flatMap(wordsAfterRedirect);
  for (const child of node.children) {
    if (child.type === 'variable_assignment') {
      checkAssignmentNode(scope, child, child.text);
      walkChildren(scope, child, cwds);
    } else if (child.field === 'redirect' || child.type.endsWith('_redirect')) {
      redirects.unshift(child);
      argumentNodes.push(...wordsAfterRedirect(child));
    } else if (child.named && child.type !== 'comment') {
      argumentNodes.push(child);
    }
  }
  for (const child of argumentNodes.sort((a, b) => a.start - b.start)) {
    walkNode(scope, child, cwds);
    words.push(...evaluateWord(child, scope.ctx.home, scope.bound));
    wordNodes.push(child);
  }
  const text = wordNodes.map((n) => n.text).join(' ');
  scope.rec.globWords(words, cwds, text || node.text);
  for (const redirect of redirects) walkRedirect(scope, redirect, cwds, text || node.text);
  return scope.run(words, cwds, text);
}

function walkRedirect(scope: Scope, node: SyntaxNode, cwds: Cwds, text: string): void {
  const heredoc = heredocOf(node);
  if (heredoc !== undefined) return walkHeredocBody(scope, heredoc, cwds, text);
  walkChildren(scope, node, cwds);
  if (node.type !== 'file_redirect') return;
  const op = node.children.find((c) => !c.named)?.type ?? '>';
  for (const destination of node.children.filter((c) => c.field === 'destination').slice(0, 1)) {
    if ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(destination.text)) continue;
    if (op === '>&-' || op === '<&-') continue;
    for (const word of evaluateWord(destination, scope.ctx.home, scope.bound)) {
      if (op === '<' || op === '<>' || op === '<&') scope.rec.access(word, 'read', cwds, text);
      if (op !== '<' && op !== '<&') scope.rec.access(word, 'write', cwds, text, true, 'file');
    }
  }
}

function walkIf(scope: Scope, node: SyntaxNode, cwds: Cwds): Outcome {
  const results: Cwds[] = [];
  let remaining = cwds;
  let sawElse = false;
  for (const clause of [node, ...node.children.filter((c) => c.type === 'elif_clause' || c.type === 'else_clause')]) {
    if (clause.type === 'else_clause') {
      const result = walkNode(scope, clause, remaining);
      results.push(result.ok, result.fail);
      sawElse = true;
      continue;
    }
    const thenIndex = clause.children.findIndex((c) => c.type === 'then');
    const condition = walkSequence(scope, statements(clause, 0, thenIndex), remaining);
    const body = walkSequence(scope, statements(clause, thenIndex + 1), condition.ok);
    results.push(body.ok, body.fail);
    remaining = condition.fail;
  }
  if (!sawElse) results.push(remaining);
  return unchanged(unionCwds(...results));
}

// A loop body runs any number of times: walk it until the possible directories stop changing. A `for` over
// words the check knows (globs expanded as bash would) is walked once per value with the variable bound, unless
// the body could change the variable itself.
function walkLoop(scope: Scope, node: SyntaxNode, cwds: Cwds): Outcome {
  const values = node.type === 'for_statement' ? loopValues(scope, node, cwds) : null;
  const variable = node.children.find((c) => c.field === 'variable')?.text;
  if (values === null || variable === undefined || scope.bound.has(variable)) return walkLoopOnce(scope, node, cwds);
  const outcomes: Outcome[] = [];
  for (const value of values) {
    scope.bound.set(variable, value);
    try {
      outcomes.push(walkLoopOnce(scope, node, cwds));
    } finally {
      scope.bound.delete(variable);
    }
  }
  if (outcomes.length === 0) outcomes.push(walkLoopOnce(scope, node, cwds));
  return unchanged(unionCwds(...outcomes.map((o) => o.ok)));
}

const MAX_LOOP_VALUES = 64;

function loopValues(scope: Scope, node: SyntaxNode, cwds: Cwds): string[] | null {
  const variable = node.children.find((c) => c.field === 'variable')?.text ?? '';
  const body = node.children.find((c) => c.field === 'body')?.text ?? '';
  const rebinds = new RegExp(`\\b${variable}\\b\\s*\\+?=|\\b(read|mapfile|readarray|printf|getopts|declare|local|export|typeset|unset|eval|source|set|shift)\\b|\\.\\s`);
  if (!/^[A-Za-z_]\w*$/.test(variable) || rebinds.test(body) || cwds.length !== 1 || cwds[0] === null) return null;
  const cwd = cwds[0] as string;
  const exists = (m: string): boolean => scope.ctx.fs.kind(posix.resolve(cwd, m)) !== null;
  const out: string[] = [];
  for (const child of node.children.filter((c) => c.field === 'value')) {
    for (const word of evaluateWord(child, scope.ctx.home, scope.bound)) {
      if (word.value === null) return null;
      if (!word.glob) out.push(word.value);
      else {
        const matches = expandGlob(scope.ctx.fs, cwd, word.pattern);
        if (matches === null) return null;
        const found = matches.filter(exists);
        out.push(...(found.length > 0 ? found : [word.value]));
      }
      if (out.length > MAX_LOOP_VALUES) return null;
    }
  }
  return node.children.some((c) => c.field === 'value') ? out : null;
}

function walkLoopOnce(scope: Scope, node: SyntaxNode, cwds: Cwds): Outcome {
  for (const child of node.children) if (child.field === 'value' || child.field === 'initializer') walkNode(scope, child, cwds);
  if (node.type === 'c_style_for_statement') {
    const header = node.children.filter((c) => ['initializer', 'condition', 'update'].includes(c.field ?? '')).map((c) => c.text).join(';');
    checkArithmetic(scope, node, header);
  }
  const variable = node.children.find((c) => c.field === 'variable')?.text;
  if (node.type === 'for_statement' && variable !== undefined) {
    const values = node.children.filter((c) => c.field === 'value');
    scope.rec.globWords(values.flatMap((v) => evaluateWord(v, scope.ctx.home, scope.bound)), cwds, node.text);
    if (values.length === 0 || values.some((v) => evaluateWord(v, scope.ctx.home, scope.bound).some((w) => w.glob || !isIntegerLiteral(w.value)))) {
      scope.tainted.add(variable);
      if (scope.integers.has(variable)) scope.rec.unresolvedWord(variable, node.text, `${variable} is an integer variable: each value the loop gives it is evaluated as arithmetic, which may run code`);
    }
    const problem = assignmentProblem(variable, scope);
    if (problem !== null) scope.rec.unresolvedWord(variable, node.text, problem);
  }
  const body = node.children.find((c) => c.field === 'body');
  const conditions = node.children.filter((c) => c.field === 'condition' && c.named);
  let current = cwds;
  for (let round = 0; round < 3; round++) {
    // A link made late in the body is there when the next round starts: walk again while the line makes links.
    const links = scope.rec.overlay.size;
    const condition = walkSequence(scope, conditions, current);
    const result = body ? walkNode(scope, body, unionCwds(condition.ok, condition.fail)) : unchanged(current);
    const next = unionCwds(current, result.ok, result.fail, condition.ok, condition.fail);
    scope.rec.settle();
    if (sameCwds(next, current) && scope.rec.overlay.size === links) return unchanged(current);
    current = round === 1 ? unionCwds(next, [null]) : next;
  }
  return unchanged(current);
}

function walkCase(scope: Scope, node: SyntaxNode, cwds: Cwds): Outcome {
  const results: Cwds[] = [cwds];
  for (const child of node.children) {
    if (child.type !== 'case_item') {
      if (child.named) walkNode(scope, child, cwds);
      continue;
    }
    // Patterns are expanded when the item is tried: a substitution in one runs.
    for (const pattern of child.children.filter((c) => c.field === 'value')) walkNode(scope, pattern, cwds);
    const body = child.children.filter((c) => c.named && c.field !== 'value' && c.type !== 'comment');
    const result = walkSequence(scope, body, cwds);
    results.push(result.ok, result.fail);
  }
  return unchanged(unionCwds(...results));
}

// A function is checked where it is called, from the cwd of that call (see runCommand); defining one runs nothing.
// Every definition seen is kept: a branch may define it one way or another.
function walkFunction(scope: Scope, node: SyntaxNode, cwds: Cwds): Outcome {
  const name = node.children.find((c) => c.field === 'name')?.text ?? '';
  const body = node.children.find((c) => c.field === 'body');
  if (body !== undefined) scope.functions.set(name, [...(scope.functions.get(name) ?? []).filter((b) => b !== body), body]);
  return unchanged(cwds);
}

function walkDeclaration(scope: Scope, node: SyntaxNode, cwds: Cwds): Outcome {
  const text = node.text;
  const name = node.children[0]?.text ?? node.type;
  scope.rec.command({ name, argv: node.children.map((c) => c.text), text });
  walkChildren(scope, node, cwds);
  const flags = node.children.filter((c) => c.type === 'word' && /^[-+]/.test(c.text)).map((c) => c.text).join('');
  const api = scope.api(cwds, text, name);
  // An integer variable evaluates every later assignment to it as arithmetic (`declare -i n; n='a[$(cmd)]'` runs
  // cmd): its names are remembered, and each later assignment is checked as arithmetic.
  if (name !== 'unset' && /-[a-zA-Z]*i/.test(flags)) {
    for (const child of node.children.slice(1)) {
      if (child.type === 'word' && /^[-+]/.test(child.text)) continue;
      const declared = child.type === 'variable_assignment' ? child.children.find((c) => c.field === 'name')?.text : child.text;
      if (declared !== undefined) scope.integers.add(declared.replace(/\[.*$/s, ''));
    }
  }
  for (const child of node.children.slice(1)) {
    if (child.type === 'variable_assignment') {
      checkAssignmentNode(scope, child, text, /[-+][a-zA-Z]*i/.test(flags));
    } else if (name === 'unset') {
      const words = child.type === 'variable_name' ? [syntheticWord(child.text)] : evaluateWord(child, scope.ctx.home, scope.bound);
      checkStateBuiltin(scope, 'unset', words, api);
    } else if (child.type !== 'word' || !/^[-+]/.test(child.text)) {
      const problem = assignmentProblem(child.text, scope);
      if (problem !== null && child.type !== 'variable_name') scope.rec.unresolvedWord(child.text, text, problem);
      else if (problem !== null && /^-[a-zA-Z]*[xn]/.test(flags)) scope.rec.unresolvedWord(child.text, text, problem);
    }
  }
  if (name !== 'unset' && /-[a-zA-Z]*n/.test(flags)) scope.rec.unresolvedWord(flags, text, 'declare -n makes a name a reference, so later assignments reach a variable the check cannot see');
  return unchanged(cwds);
}

// `${!v}` (indirection), `${v@P}` (prompt expansion runs substitutions held in v), `${v@E}`, subscripts and
// `${v:off:len}` (arithmetic): bash evaluates what the variable holds, so only literal forms are followed.
function checkExpansion(scope: Scope, node: SyntaxNode): void {
  const ops = node.children.filter((c) => c.field === 'operator').map((c) => c.text);
  const reason = (why: string): void => scope.rec.unresolvedWord(node.text, node.text, why);
  if (node.children[1]?.type === '!' || ops[0] === '!') reason('indirect expansion reads a variable named at run time');
  const at = ops.indexOf('@');
  if (at !== -1 && ['P', 'E', 'A', 'K', 'k'].includes(ops[at + 1] ?? '')) reason(`the @${ops[at + 1]} transformation evaluates the value of the variable`);
  for (const sub of node.children.filter((c) => c.type === 'subscript')) {
    const index = sub.children.find((c) => c.field === 'index')?.text ?? '';
    if (index !== '@' && index !== '*' && !arithmeticIsSafe(index, scope.tainted)) reason('the array subscript is evaluated as arithmetic and may run code');
  }
  // `${v:=word}` and `${v=word}` assign word to v: the same checks as `v=word` (a name that steers the shell, an
  // integer variable, which evaluates it as arithmetic), and v's value is no longer a known integer.
  if (ops.includes(':=') || ops.includes('=')) {
    const target = node.children.find((c) => c.type === 'variable_name') ?? node.children.find((c) => c.type === 'subscript')?.children.find((c) => c.field === 'name');
    const name = target?.text ?? '';
    const problem = assignmentProblem(name, scope);
    if (problem !== null) reason(problem);
    if (scope.integers.has(name)) reason(`${name} is an integer variable: the default assigned to it is evaluated as arithmetic, which may run code`);
    scope.tainted.add(name);
  }
  const colon = ops.indexOf(':');
  if (colon !== -1 && !['-', '=', '?', '+'].includes(ops[colon + 1] ?? '')) {
    const rest = node.children.slice(node.children.findIndex((c) => c.field === 'operator' && c.text === ':')).filter((c) => c.named).map((c) => c.text).join(':');
    if (!arithmeticIsSafe(rest, scope.tainted)) reason('the offset and length are evaluated as arithmetic and may run code');
  }
}

function checkArithmetic(scope: Scope, node: SyntaxNode, expression: string): void {
  if (!arithmeticIsSafe(expression, scope.tainted)) {
    scope.rec.unresolvedWord(node.text, node.text, 'bash evaluates this as arithmetic, which may run code (array subscripts, variables holding them)');
  }
  for (const match of expression.matchAll(/(?<![\w#$])([A-Za-z_]\w*)\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)/g)) {
    const problem = assignmentProblem(match[1] as string, scope);
    if (problem !== null) scope.rec.unresolvedWord(node.text, node.text, problem);
  }
}

function walkTest(scope: Scope, node: SyntaxNode, cwds: Cwds): Outcome {
  const text = node.text;
  scope.rec.command({ name: node.children[0]?.text ?? '[', argv: [text], text });
  const visit = (n: SyntaxNode): void => {
    scope.tick();
    const operator = n.children.find((c) => c.field === 'operator')?.text ?? '';
    const operands = n.children.filter((c) => c.named && c.field !== 'operator');
    if (n.type === 'unary_expression' && FILE_TESTS.has(operator)) operands.forEach((o) => readWord(scope, o, cwds, text));
    if (node.children[0]?.type === '[') for (const o of operands) scope.rec.globWords(evaluateWord(o, scope.ctx.home, scope.bound), cwds, text);
    if (n.type === 'binary_expression' && ['-nt', '-ot', '-ef'].includes(operator)) operands.forEach((o) => readWord(scope, o, cwds, text));
    // [[ ]] evaluates both sides of -eq and friends as arithmetic, and the subscript of -v; [ ] (the test builtin)
    // the subscript of -v only.
    if (operator === '-v' || (['-eq', '-ne', '-lt', '-le', '-gt', '-ge'].includes(operator) && node.children[0]?.type === '[[')) {
      for (const o of operands) {
        const value = evaluateWord(o, scope.ctx.home, scope.bound)[0]?.value ?? null;
        if (value === null && operator !== '-v') checkArithmetic(scope, o, o.text);
        else checkArithmetic(scope, o, operator === '-v' ? (/\[(.*)\]$/s.exec(value ?? '')?.[1] ?? (value === null ? '$' : '0')) : (value as string));
      }
    }
    for (const child of n.children) {
      if (child.type.endsWith('_expression') || child.type === 'parenthesized_expression') visit(child);
      else if (child.named) walkNode(scope, child, cwds);
    }
  };
  visit(node);
  return unchanged(cwds);
}

function readWord(scope: Scope, node: SyntaxNode, cwds: Cwds, text: string): void {
  for (const word of evaluateWord(node, scope.ctx.home, scope.bound)) scope.rec.access(word, 'read', cwds, text);
}

function checkAssignmentNode(scope: Scope, node: SyntaxNode, command: string, declaredInteger = false): void {
  const name = node.children.find((c) => c.field === 'name')?.text ?? '';
  const problem = assignmentProblem(name, scope);
  if (problem !== null) scope.rec.unresolvedWord(node.text, command, problem);
  const value = node.children.find((c) => c.field === 'value');
  const plain = name.replace(/\[.*$/s, '');
  const integer = declaredInteger || scope.integers.has(plain);
  if (value === undefined) return;
  if (value.type === 'array') {
    scope.tainted.add(plain);
    if (value.text.includes('[')) scope.rec.unresolvedWord(node.text, command, 'an array subscript in the assignment is evaluated as arithmetic and may run code');
    return;
  }
  const words = evaluateWord(value, scope.ctx.home, scope.bound);
  const literal = words.length === 1 ? (words[0]?.value ?? null) : null;
  if (!isIntegerLiteral(literal)) scope.tainted.add(plain);
  if (integer && !(literal !== null && arithmeticIsSafe(literal, scope.tainted))) scope.rec.unresolvedWord(node.text, command, 'an integer variable evaluates its value as arithmetic, which may run code');
}

function walkChildren(scope: Scope, node: SyntaxNode, cwds: Cwds): void {
  for (const child of node.children) if (child.named) walkNode(scope, child, cwds);
}

// Statements followed by `&`; they run in a subshell, so a cd in them does not move the script.
const BACKGROUND = new WeakSet<SyntaxNode>();

/** The statement children of a node (named, not comments, not if-clauses), optionally between two child indexes. */
function statements(node: SyntaxNode, from = 0, to = node.children.length): SyntaxNode[] {
  const slice = node.children.slice(from, to === -1 ? node.children.length : to);
  slice.forEach((child, i) => {
    if (slice[i + 1]?.type === '&') BACKGROUND.add(child);
  });
  return slice.filter((c) => c.named && c.type !== 'comment' && c.type !== 'elif_clause' && c.type !== 'else_clause');
}
