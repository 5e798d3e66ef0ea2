// The toolwarden dashboard page: plain DOM, no framework, no build step. Everything shown comes from
// /ui/api/events (Server-Sent Events) and is put in the page as text, never as HTML.

/** Audit events the page keeps (the server keeps its own bounded ring). */
const MAX_AUDIT_ROWS = 500;

// confirming: the key of the destructive action (close a session, stop a process) waiting for its second click.
const state = { snapshot: undefined, audit: [], clockSkew: 0, stream: undefined, confirming: undefined };
const $ = (id) => document.getElementById(id);

/** An element with attributes and children; strings become text nodes. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== false) node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== undefined && child !== null) node.append(child instanceof Node ? child : String(child));
  return node;
}

// The login key the login reply gave: sent with the cookie on every request. Kept in sessionStorage, which is per
// origin (scheme, host and port), unlike the cookie, which the browser would send to any port of this host.
const loginKey = () => sessionStorage.getItem('tw-login-key') ?? '';

async function post(path, body = {}) {
  const res = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-tw-login-key': loginKey() }, body: JSON.stringify(body) });
  const reply = await res.json().catch(() => ({}));
  if (res.status === 401) showLogin();
  if (!res.ok) throw new Error(reply.message ?? `HTTP ${res.status}`);
  return reply;
}

function setStatus(text, kind) {
  const status = $('status');
  status.textContent = text;
  status.className = `status ${kind}`;
}

function showLogin() {
  state.stream?.close();
  $('main').hidden = true;
  $('logout').hidden = true;
  $('login').hidden = false;
  setStatus('logged out', 'down');
}

async function start() {
  const res = await fetch('/ui/api/state', { credentials: 'same-origin', headers: { 'x-tw-login-key': loginKey() } });
  if (res.status === 401) return showLogin();
  $('login').hidden = true;
  $('main').hidden = false;
  $('logout').hidden = false;
  connect();
}

function connect() {
  state.stream?.close();
  const stream = new EventSource(`/ui/api/events?key=${encodeURIComponent(loginKey())}`);
  state.stream = stream;
  stream.addEventListener('open', () => setStatus('live', 'live'));
  stream.addEventListener('error', () => setStatus('reconnecting', 'down'));
  stream.addEventListener('snapshot', (event) => {
    state.snapshot = JSON.parse(event.data);
    state.clockSkew = state.snapshot.now - Date.now();
    render();
  });
  stream.addEventListener('audit-backlog', (event) => {
    state.audit = JSON.parse(event.data).slice(-MAX_AUDIT_ROWS);
    renderAudit();
  });
  stream.addEventListener('audit', (event) => {
    state.audit.push(JSON.parse(event.data));
    if (state.audit.length > MAX_AUDIT_ROWS) state.audit.shift();
    renderAudit();
  });
}

function render() {
  renderApprovals();
  renderSessions();
  renderProcesses();
}

function empty(list, text) {
  if (list.childElementCount === 0) list.append(el('li', { class: 'empty' }, text));
}

/** A button that is disabled while its action runs, and shows the failure next to it. */
function action(label, kind, run, testid) {
  const button = el('button', { type: 'button', class: kind, 'data-testid': testid });
  button.textContent = label;
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await run();
    } catch (error) {
      button.after(el('span', { class: 'error', role: 'alert' }, error.message));
      button.disabled = false;
    }
  });
  return button;
}

/**
 * A destructive action takes two clicks: the first shows what it does with a confirm and a cancel button (kept across
 * the re-renders of each snapshot by its key), the second does it.
 */
function confirmed(key, label, question, run, testid) {
  if (state.confirming !== key) {
    return el('button', { type: 'button', class: 'danger', 'data-testid': testid, onclick: () => { state.confirming = key; render(); } }, label);
  }
  const cancel = el('button', { type: 'button', class: 'secondary', 'data-testid': 'cancel', onclick: () => { state.confirming = undefined; render(); } }, 'Cancel');
  const confirm = action(`Yes, ${label.toLowerCase()}`, 'danger', async () => {
    await run();
    state.confirming = undefined;
  }, `confirm-${testid}`);
  return el('span', { class: 'confirm', role: 'group', 'data-testid': `${testid}-question` }, el('span', {}, question), confirm, cancel);
}

const TITLES = { allow: 'Approve once', 'allow-always': 'Allow always', deny: 'Deny' };

function renderApprovals() {
  const list = $('approvals');
  const approvals = state.snapshot.approvals;
  $('approval-count').textContent = String(approvals.length);
  list.replaceChildren(
    ...approvals.map((item) =>
      el('li', { 'data-testid': 'approval', 'data-tool': item.tool },
        el('div', { class: 'row' },
          el('strong', {}, item.tool),
          el('span', {}, `user ${item.user ?? '-'}`),
          item.dangerous ? el('span', { class: 'tag dangerous' }, 'dangerous removal: once only') : undefined,
          el('span', { class: 'time-left', 'data-testid': 'time-left', 'data-deadline': item.deadline, 'data-ends-by': item.endsBy }, timeLeft(item.deadline, item.endsBy))),
        el('div', { class: 'mono' }, item.subject),
        el('div', { class: 'hint' }, item.reason),
        el('div', { class: 'actions' },
          ...item.options.map((option) =>
            action(TITLES[option] ?? option, option === 'deny' ? 'deny' : option === 'allow' ? '' : 'secondary', () => post(`/ui/api/approvals/${encodeURIComponent(item.id)}`, { decision: option }), `approve-${option}`)))),
    ),
  );
  empty(list, 'No call is waiting for approval.');
}

function renderSessions() {
  const root = $('sessions');
  const sessions = state.snapshot.sessions;
  $('session-count').textContent = String(sessions.length);
  const byUser = new Map();
  for (const session of sessions) byUser.set(session.user, [...(byUser.get(session.user) ?? []), session]);
  root.replaceChildren(
    ...[...byUser].map(([user, list]) =>
      el('div', { class: 'user' },
        el('h3', { 'data-testid': 'user-sessions' }, sessionsOf(user, list.length, list[0].maxSessionsOfUser)),
        el('ul', { class: 'items' },
          ...list.map((s) =>
            el('li', { 'data-testid': 'session', 'data-user': s.user },
              el('div', { class: 'row' },
                el('code', { title: s.id }, s.id.slice(0, 8)),
                el('strong', { 'data-testid': 'session-client' }, s.client ?? 'unnamed client'),
                el('span', { 'data-testid': 'session-user' }, `user ${s.user}`),
                el('span', {}, `age ${age(s.openedAt)}`),
                el('span', {}, `${s.calls} calls`),
                el('span', {}, `writes ${bytes(s.writeBytesUsed)}${s.writeQuotaBytes > 0 ? ` of ${bytes(s.writeQuotaBytes)}` : ''}`),
                el('span', {}, `processes ${s.processes.filter((p) => p.status === 'running').length} of ${s.maxProcesses}`)),
              el('div', { class: 'mono' }, s.workspace),
              el('div', { class: 'hint' }, `tools: ${[...s.tools, ...s.mcpServers.map((id) => `mcp:${id}`)].join(', ') || 'none'}`),
              el('div', { class: 'actions' },
                confirmed(`close:${s.id}`, 'Close session', 'Close it? Its calls end and its processes are killed.', () => post(`/ui/api/sessions/${encodeURIComponent(s.id)}/close`), 'close-session'))))))),
  );
  if (sessions.length === 0) root.replaceChildren(el('p', { class: 'empty' }, 'No open sessions.'));
}

function renderProcesses() {
  const list = $('processes');
  const rows = state.snapshot.sessions.flatMap((s) => s.processes.map((p) => ({ session: s, process: p })));
  $('process-count').textContent = String(rows.filter((r) => r.process.status === 'running').length);
  list.replaceChildren(
    ...rows.map(({ session, process }) =>
      el('li', { 'data-testid': 'process', 'data-status': process.status },
        el('div', { class: 'row' },
          el('code', {}, process.processId),
          el('span', { class: `tag ${process.status}`, 'data-testid': 'process-status' }, process.status),
          el('span', {}, `${session.client ?? 'unnamed client'}, user ${session.user}, session ${session.id.slice(0, 8)}`),
          process.exitCode === null ? undefined : el('span', {}, `exit ${process.exitCode}`)),
        el('div', { class: 'mono' }, process.command),
        el('pre', {}, process.tail || '(no output yet)'),
        process.status === 'running'
          ? el('div', { class: 'actions' },
            confirmed(`stop:${session.id}:${process.processId}`, 'Stop', 'Stop it? It gets SIGTERM, then SIGKILL.', () => post(`/ui/api/sessions/${encodeURIComponent(session.id)}/processes/${encodeURIComponent(process.processId)}/stop`), 'stop-process'))
          : undefined)),
  );
  empty(list, 'No background processes.');
}

function renderAudit() {
  const user = $('filter-user').value.trim();
  const tool = $('filter-tool').value.trim();
  const decision = $('filter-decision').value;
  const shown = state.audit.filter((e) => (!user || (e.user ?? '').includes(user)) && (!tool || e.tool.includes(tool)) && (!decision || e.decision === decision));
  $('audit').replaceChildren(
    ...shown.slice(-200).reverse().map((e) =>
      el('tr', { 'data-testid': 'audit-row', 'data-decision': e.decision, 'data-tool': e.tool },
        el('td', { class: 'mono', 'data-label': 'time' }, e.time.slice(11, 19)),
        el('td', { 'data-label': 'user' }, words(e.user ?? '')),
        el('td', { 'data-label': 'tool' }, words(e.tool)),
        el('td', { 'data-label': 'decision' }, el('span', { class: `tag ${e.decision}` }, e.decision)),
        el('td', { class: 'mono', 'data-label': 'rule / code' }, words([e.rule, e.code].filter(Boolean).join(' / '))),
        el('td', { class: 'mono', 'data-label': 'result' }, words(e.result ?? '')))),
  );
}

/**
 * Text as words that wrap only between each other: a browser would also break after a hyphen or a slash, inside a
 * command's flag or a path; a word breaks only when it alone is wider than its cell.
 */
function words(text) {
  return String(text).split(/(\s+)/).filter(Boolean).map((part) => (/^\s+$/.test(part) ? part : el('span', { class: 'word' }, part)));
}

function sessionsOf(user, open, max) {
  const shown = max === undefined ? `${open}` : `${open} of ${max}`;
  return `${user}: ${shown} session${(max ?? open) === 1 ? '' : 's'}`;
}

/** Time left of an approval's wait, and what ends it: the approval timeout, or the call's own deadline coming first. */
function timeLeft(deadline, endsBy) {
  const s = Math.ceil(Math.max(0, deadline - (Date.now() + state.clockSkew)) / 1000);
  const shown = s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${shown} left (${endsBy === 'toolTimeoutMs' ? "the call's deadline" : 'approval timeout'})`;
}

function age(openedAt) {
  const s = Math.max(0, Math.floor((Date.now() + state.clockSkew - openedAt) / 1000));
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m ${s % 60}s` : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

function bytes(n) {
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`;
}

$('login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('login-error').textContent = '';
  try {
    const { key } = await post('/ui/login', { token: $('login-token').value });
    sessionStorage.setItem('tw-login-key', key);
    $('login-token').value = '';
    await start();
  } catch (error) {
    $('login-error').textContent = error.message;
  }
});
$('logout').addEventListener('click', async () => {
  await post('/ui/logout').catch(() => undefined);
  sessionStorage.removeItem('tw-login-key');
  showLogin();
});
for (const id of ['filter-user', 'filter-tool', 'filter-decision']) $(id).addEventListener('input', renderAudit);
setInterval(() => {
  for (const node of document.querySelectorAll('[data-deadline]')) node.textContent = timeLeft(Number(node.dataset.deadline), node.dataset.endsBy);
}, 1000);
start().catch((error) => setStatus(`failed: ${error.message}`, 'down'));
