// The web UI's shell: log in (a bearer token made from the administrator's password), a navigation
// of the built-in pages and of those the web bundle and apps contribute (/api/v1/ui/pages), and a
// hash router that renders the page whose id is in the address (#/<id>, or #/<id>/<rest> for a page
// of its own: #/switches/00:00:00:00:00:00:00:01). A page is an ES module exporting
// render(element, api, rest); api calls the REST API with the session's token, and api.events
// delivers the controller's live events (see LiveEvents below). Once a page has rendered, the page
// element's data-route holds its address.

import { el } from '/ui/dom.js';
import { RecentEvents, renderOverview } from '/ui/overview.js';

const TOKEN = 'heliograph.token';
const TOKEN_ID = 'heliograph.tokenId';
const LOGIN_SECONDS = 12 * 3600;
const $ = (id) => document.getElementById(id);

class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : 'HTTP ' + status);
    this.status = status;
    this.field = body && body.field;
    this.body = body; // the whole answer, for a page that shows more of it (a list of problems, say)
  }
}

async function call(method, path, body, authorization) {
  const headers = { 'X-Requested-With': 'heliograph-ui', 'Accept': 'application/json' };
  const token = sessionStorage.getItem(TOKEN);
  if (authorization) headers.Authorization = authorization;
  else if (token) headers.Authorization = 'Bearer ' + token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const json = text && (response.headers.get('Content-Type') || '').startsWith('application/json') ? JSON.parse(text) : text;
  if (response.status === 401 && !authorization) {
    sessionStorage.removeItem(TOKEN);
    showLogin();
  }
  if (!response.ok) throw new ApiError(response.status, json);
  return json;
}

// The controller's live events (GET /api/v1/events, server-sent events: "event: <type>" and a JSON
// "data:" line; types switch, link, host). One stream per session, read with fetch so that it carries
// the bearer token; it reconnects after a failure or when the server ends the stream (a stream that
// fell too far behind is dropped by the server), waiting longer each time up to 30 s. The server sends
// a comment every 15 s: a stream silent for SILENT_MS is taken for dead (a controller or network that
// went away without closing it) and replaced. Each (re)connection is delivered as an event of type
// 'open', so that a page reloads what it may have missed. Handlers a page adds while it renders are
// removed when the operator leaves the page.
const SILENT_MS = 45000;

class LiveEvents {
  constructor() {
    this.handlers = new Map();
    this.pageHandlers = [];
    this.abort = null;
    this.delay = 1000;
    this.heard = 0;
    this.watchdog = null;
  }

  /** Calls handler(data) for each event of type; returns a function that stops it. */
  on(type, handler) {
    const entry = { type, handler };
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(entry);
    this.pageHandlers.push(entry);
    return () => this.handlers.get(type).delete(entry);
  }

  /** Like on, but the handler stays when the operator changes page (the shell's own). */
  keep(type, handler) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add({ type, handler });
  }

  leavePage() {
    for (const entry of this.pageHandlers) this.handlers.get(entry.type).delete(entry);
    this.pageHandlers = [];
  }

  deliver(type, data) {
    for (const { handler } of [...(this.handlers.get(type) || [])]) {
      try { handler(data); } catch (e) { console.error('live event handler', type, e); }
    }
  }

  connect() {
    if (this.abort) return;
    const abort = new AbortController();
    this.abort = abort;
    this.heard = Date.now();
    clearInterval(this.watchdog);
    this.watchdog = setInterval(() => {
      if (Date.now() - this.heard > SILENT_MS) abort.abort(); // reconnects below
    }, SILENT_MS / 3);
    this.read(abort.signal)
      .catch(() => { /* reconnect below */ })
      .finally(() => {
        if (this.abort !== abort) return; // disconnected on purpose
        this.abort = null;
        clearInterval(this.watchdog);
        setTimeout(() => { if (sessionStorage.getItem(TOKEN)) this.connect(); }, this.delay);
        this.delay = Math.min(this.delay * 2, 30000);
      });
  }

  disconnect() {
    const abort = this.abort;
    this.abort = null;
    clearInterval(this.watchdog);
    if (abort) abort.abort();
  }

  async read(signal) {
    // X-Requested-With: a refusal then challenges Bearer only, so the browser opens no login dialog of its own
    const response = await fetch('/api/v1/events', { signal, headers: {
      'Authorization': 'Bearer ' + sessionStorage.getItem(TOKEN), 'Accept': 'text/event-stream',
      'X-Requested-With': 'heliograph-ui' } });
    if (response.status === 401) { sessionStorage.removeItem(TOKEN); showLogin(); return; }
    if (!response.ok || !response.body) throw new Error('events: HTTP ' + response.status);
    this.delay = 1000;
    this.heard = Date.now();
    this.deliver('open', {});
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      this.heard = Date.now();
      buffer += value.replace(/\r\n?/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        this.dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  }

  dispatch(block) {
    let type = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue; // a comment: the server's keep-alive
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
    }
    if (!data.length) return;
    let parsed;
    try { parsed = JSON.parse(data.join('\n')); } catch (e) { parsed = data.join('\n'); }
    this.deliver(type, parsed);
  }
}

const events = new LiveEvents();
// The overview lists what changed since login, whichever page the operator was on meanwhile.
const recent = new RecentEvents();
for (const type of ['switch', 'link', 'host']) events.keep(type, (e) => recent.add(type, e));

export const api = {
  get: (path) => call('GET', path),
  post: (path, body) => call('POST', path, body),
  put: (path, body) => call('PUT', path, body),
  delete: (path) => call('DELETE', path),
  events,
};

// The overview leads the navigation and the API reference closes it; the contributed pages come
// between, in the order the server lists them (by each page's rank: topology, switches, hosts, ...).
const overview = { id: 'overview', title: 'Overview', render: (element) => renderOverview(element, api, recent) };
const apiPage = { id: 'api', title: 'API', render: renderApi };
const builtIn = [overview, apiPage];
let contributed = [];

function showLogin() {
  events.disconnect();
  $('login').hidden = false;
  $('nav').hidden = true;
  $('logout').hidden = true;
  $('page').replaceChildren();
}

async function login(event) {
  event.preventDefault();
  const form = new FormData($('login'));
  const basic = 'Basic ' + btoa(form.get('user') + ':' + form.get('password'));
  try {
    // A login lasts a working day: a browser that never logs out leaves no token behind for longer.
    const created = await call('POST', '/api/v1/auth/tokens',
      { name: 'web UI ' + new Date().toISOString(), expiresInSeconds: LOGIN_SECONDS }, basic);
    sessionStorage.setItem(TOKEN, created.token);
    sessionStorage.setItem(TOKEN_ID, created.id);
    $('login-error').textContent = '';
    $('login').reset();
    await start();
  } catch (e) {
    $('login-error').textContent = e.status === 401 ? 'Wrong user or password.' : e.message;
  }
}

async function logout() {
  const id = sessionStorage.getItem(TOKEN_ID);
  if (id) {
    try { await api.delete('/api/v1/auth/tokens/' + encodeURIComponent(id)); } catch (e) { /* already gone */ }
  }
  sessionStorage.removeItem(TOKEN);
  sessionStorage.removeItem(TOKEN_ID);
  showLogin();
}

async function refreshNavigation() {
  try {
    contributed = await api.get('/api/v1/ui/pages');
  } catch (e) {
    return;
  }
  const current = address().id;
  const pages = [overview, ...contributed, apiPage];
  // Redrawn only when the pages or the current one changed: a link the operator is about to click stays.
  const drawn = JSON.stringify([current, pages.map((p) => [p.id, p.title])]);
  if ($('nav').dataset.drawn !== drawn) {
    $('nav').replaceChildren(...pages.map((p) =>
      el('a', { href: '#/' + p.id, class: p.id === current ? 'active' : '' }, p.title)));
    $('nav').dataset.drawn = drawn;
  }
  // A page whose app stopped leaves the navigation; if it is open, go back to the overview.
  if (!pages.some((p) => p.id === current)) location.hash = '#/overview';
}

/** The page id and the rest of the address: #/switches/00:..:01 is { id: 'switches', rest: '00:..:01' }. */
function address() {
  const path = location.hash.replace(/^#\/?/, '');
  const slash = path.indexOf('/');
  const id = (slash < 0 ? path : path.slice(0, slash)) || 'overview';
  return { id, rest: slash < 0 ? '' : decodeURIComponent(path.slice(slash + 1)) };
}

async function route() {
  if (!sessionStorage.getItem(TOKEN)) return showLogin();
  const { id, rest } = address();
  events.leavePage();
  await refreshNavigation();
  // A fresh element per route: a page still rendering into the old one writes where nobody looks.
  const page = el('section', { id: 'page' });
  $('page').replaceWith(page);
  try {
    const own = builtIn.find((p) => p.id === id);
    if (own) {
      await own.render(page, api, rest);
    } else {
      const theirs = contributed.find((p) => p.id === id);
      if (!theirs) return;
      const module = await import(theirs.script + '?v=' + Date.now());
      await module.render(page, api, rest);
    }
  } catch (e) {
    page.replaceChildren(el('p', { class: 'error' }, e.message));
  }
  if (page.isConnected) page.dataset.route = location.hash || '#/overview';
}

function schemaText(schema, components, depth = 0) {
  if (!schema) return '';
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop();
    return depth > 2 ? name : name + ' ' + schemaText(components[name], components, depth + 1);
  }
  if (schema.allOf) return schemaText(schema.allOf[0], components, depth);
  if (schema.type === 'array') return '[' + schemaText(schema.items, components, depth) + ']';
  if (schema.enum) return schema.enum.join(' | ');
  if (schema.properties) {
    return '{ ' + Object.entries(schema.properties)
      .map(([k, v]) => k + ': ' + schemaText(v, components, depth + 1)).join(', ') + ' }';
  }
  if (schema.additionalProperties) return '{ string: ' + schemaText(schema.additionalProperties, components, depth) + ' }';
  return schema.format ? schema.type + ' (' + schema.format + ')' : (schema.type || 'any');
}

async function renderApi(element) {
  const doc = await api.get('/api/v1/openapi.json');
  const components = (doc.components && doc.components.schemas) || {};
  element.append(el('h1', {}, doc.info.title + ' ' + doc.info.version), el('p', { class: 'hint' }, doc.info.description));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const details = el('details', {}, el('summary', {}, el('span', { class: 'method' }, method), ' ',
        el('span', { class: 'path' }, path), op.summary ? ' - ' + op.summary : ''));
      const rows = (op.parameters || []).map((p) => el('tr', {}, el('td', {}, p.in), el('td', { class: 'path' }, p.name),
        el('td', {}, p.required ? 'required' : 'optional'), el('td', {}, schemaText(p.schema, components)),
        el('td', {}, p.description || '')));
      if (rows.length) details.append(el('table', {}, ...rows));
      if (op.requestBody) {
        const [type, media] = Object.entries(op.requestBody.content)[0];
        details.append(el('p', {}, 'Body (' + type + '): ', el('code', {}, schemaText(media.schema, components))));
      }
      for (const [status, response] of Object.entries(op.responses)) {
        const content = response.content && Object.values(response.content)[0];
        details.append(el('p', {}, status + ': ' + response.description + ' ',
          el('code', {}, content ? schemaText(content.schema, components) : '')));
      }
      element.append(details);
    }
  }
}

async function start() {
  // Without a token (a first visit, a new tab) the login form shows at once: no request goes out
  // unauthenticated, not even the event stream's.
  if (!sessionStorage.getItem(TOKEN)) return showLogin();
  $('login').hidden = true;
  $('nav').hidden = false;
  $('logout').hidden = false;
  events.connect();
  await route();
}

$('login').addEventListener('submit', login);
$('logout').addEventListener('click', logout);
window.addEventListener('hashchange', route);
setInterval(() => { if (sessionStorage.getItem(TOKEN)) refreshNavigation(); }, 5000);
start();
