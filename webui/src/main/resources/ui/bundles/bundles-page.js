// The web UI's bundles page (registered by io.heliograph.webui.bundles.BundlesPage): the controller's
// OSGi bundles with state and version, and their life cycle: install an uploaded jar, start, stop,
// update from a jar, uninstall. Platform bundles (the API's platform: the framework and the
// distribution's bundles/, e.g. Guava, Netty, the core) carry a badge; stopping or uninstalling one is a
// forced confirmation (the operator ticks that the controller may stop working) and is sent with
// force=true. Uninstalling an app, and updating a platform bundle, ask first too. After each operation
// the page asks the API for the bundle until its state settles, then shows every bundle again (others
// may have changed with it); it also refreshes every few seconds, as bundles change from the console
// and the hot folder too.

import { el, stylesheet } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';
import { BundleClient } from '/ui/bundles/bundle-client.js';
import { confirmAction } from '/ui/bundles/confirm-dialog.js';
import { ACKNOWLEDGE, describe, platformRole } from '/ui/bundles/bundle-warnings.js';

const REFRESH_MS = 5000;
const FRAMEWORK = 0;
const VERBS = { start: 'Starting', stop: 'Stopping', update: 'Updating', uninstall: 'Uninstalling' };

export async function render(element, api) {
  stylesheet('/ui/bundles/bundles.css');
  const client = new BundleClient(api);
  const busy = new Set();
  let bundles = [];
  let changed = null;   // the id of the bundle last acted on, marked in the table
  let outcome = null;   // what became of the last operation, { id, text, error }, shown in that bundle's row

  const status = el('p', { class: 'hg-bundles-status', role: 'status' });
  const error = el('p', { class: 'error hg-bundles-error', role: 'alert' });
  const say = (text) => { status.textContent = text; error.textContent = ''; };
  const fail = (text) => { error.textContent = text; status.textContent = ''; };

  const table = new DataTable([
    { key: 'id', title: 'Id', numeric: true },
    { key: 'symbolicName', title: 'Symbolic name', value: (b) => b.symbolicName.toLowerCase(),
      text: (b) => b.platform ? `${b.symbolicName} platform` : b.symbolicName,
      cell: (b) => el('span', {}, b.symbolicName, b.platform ? el('span', { class: 'hg-platform-badge',
        title: 'part of the controller\'s platform, not an app' }, 'platform') : null) },
    { key: 'name', title: 'Name' },
    { key: 'version', title: 'Version' },
    { key: 'state', title: 'State', cell: (b) => el('span', {
      class: 'hg-state hg-state-' + b.state.toLowerCase() + (b.id === changed ? ' hg-changed' : '') },
    b.fragment ? b.state + ' (fragment)' : b.state) },
    { key: 'actions', title: 'Actions', text: () => '', value: () => 0, cell: (b) => actions(b) },
  ], { filterLabel: 'Filter bundles', empty: 'No bundles', rowKey: (b) => String(b.id) });

  function actions(bundle) {
    if (bundle.id === FRAMEWORK) return el('span', { class: 'hint' }, 'the OSGi framework');
    const disabled = busy.has(bundle.id);
    const button = (action, label) => el('button', { type: 'button', 'data-action': action, disabled,
      'aria-label': `${label} ${describe(bundle)}`, onclick: () => act(bundle, action) }, label);
    const running = bundle.state === 'ACTIVE' || bundle.state === 'STARTING';
    const chooser = el('input', { type: 'file', accept: '.jar,application/java-archive', class: 'hg-update-file',
      'data-action': 'update-file', 'aria-label': `jar to update ${describe(bundle)} with`, hidden: true,
      onchange: () => { if (chooser.files.length) act(bundle, 'update', chooser.files[0]); } });
    const note = outcome && outcome.id === bundle.id
      ? el('div', { class: (outcome.error ? 'error' : 'hint') + ' hg-row-outcome' }, outcome.text) : null;
    return el('div', {}, el('span', { class: 'hg-bundle-actions' },
      bundle.fragment ? null : running ? button('stop', 'Stop') : button('start', 'Start'),
      el('button', { type: 'button', 'data-action': 'update', disabled, 'aria-label': `Update ${describe(bundle)} from a jar`,
        onclick: () => chooser.click() }, 'Update…'),
      chooser,
      button('uninstall', 'Uninstall')), note);
  }

  /** Says what became of an operation on bundle: above the table, and in its row, where the operator is. */
  function report(bundle, text, error = false) {
    outcome = { id: bundle.id, text, error };
    if (error) fail(text);
    else say(text);
    draw();
  }

  function draw() {
    table.setRows(bundles);
  }

  async function reload() {
    bundles = await client.list();
    draw();
  }

  /**
   * Asks first where the operation cannot be undone here or takes part of the controller down; resolves
   * to { go, force }. Stopping or uninstalling a platform bundle is a forced confirmation, and goes with
   * force (the API refuses it without).
   */
  async function confirmed(bundle, action) {
    const role = platformRole(bundle);
    if (action === 'start' || (action !== 'uninstall' && !role)) return { go: true, force: false };
    const forced = Boolean(bundle.platform) && (action === 'stop' || action === 'uninstall');
    const what = action === 'uninstall' ? 'Uninstall' : action === 'stop' ? 'Stop' : 'Update';
    const consequence = role ? `${describe(bundle)} ${role}` : '';
    const message = action === 'uninstall'
      ? `${describe(bundle)} ${bundle.version} is removed from the controller; to have it back, upload its jar again.`
          + (consequence ? ' ' + consequence : '')
      : consequence;
    const go = await confirmAction(element, { title: `${what} ${bundle.name || bundle.symbolicName}?`, message,
      confirm: what, acknowledge: forced ? ACKNOWLEDGE : undefined });
    return { go, force: forced };
  }

  async function act(bundle, action, file) {
    const answer = await confirmed(bundle, action);
    if (!answer.go) {
      report(bundle, `${describe(bundle)}: nothing done.`);
      return;
    }
    busy.add(bundle.id);
    changed = bundle.id;
    report(bundle, `${VERBS[action]} ${describe(bundle)}…`);
    try {
      if (action === 'update') await client.update(bundle.id, file);
      else if (action === 'start') await client.start(bundle.id);
      else await client[action](bundle.id, answer.force);
      const now = await client.settled(bundle.id);
      if (!now) report(bundle, `Uninstalled ${describe(bundle)}.`);
      else report(bundle, `${describe(bundle)} ${now.bundle.version} is ${now.settled ? '' : 'still '}${now.bundle.state}.`);
    } catch (e) {
      report(bundle, `Cannot ${action} ${describe(bundle)}: ${e.message}`, true);
    } finally {
      busy.delete(bundle.id);
    }
    await reloadShowingErrors();
  }

  async function reloadShowingErrors() {
    try {
      await reload();
    } catch (e) {
      fail(`Cannot list the bundles: ${e.message}`);
    }
  }

  const file = el('input', { type: 'file', name: 'file', accept: '.jar,application/java-archive',
    id: 'hg-install-file', 'aria-describedby': 'hg-install-error' });
  const fileError = el('span', { class: 'error hg-install-error', id: 'hg-install-error', role: 'alert' });
  const startIt = el('input', { type: 'checkbox', id: 'hg-install-start', class: 'hg-install-start' });
  startIt.defaultChecked = true; // what form.reset() goes back to
  startIt.checked = true;
  const installButton = el('button', { type: 'submit' }, 'Install');
  const form = el('form', { class: 'hg-bundle-install', onsubmit: install },
    el('label', { for: 'hg-install-file' }, 'Install a bundle jar '), file, ' ', startIt, ' ',
    el('label', { for: 'hg-install-start' }, 'and start it'), ' ', installButton, ' ', fileError);

  async function install(event) {
    event.preventDefault();
    fileError.textContent = '';
    if (!file.files.length) {
      fileError.textContent = 'Choose a bundle jar to upload first.';
      return;
    }
    const jar = file.files[0];
    installButton.disabled = true;
    say(`Uploading ${jar.name}…`);
    try {
      const installed = await client.install(jar, startIt.checked);
      changed = installed.id;
      outcome = { id: installed.id, text: `Installed from ${jar.name}.`, error: false };
      form.reset();
      say(`Installed ${describe(installed)} ${installed.version} from ${jar.name}: ${installed.state}.`
        + (installed.state === 'INSTALLED' ? ' Start it from its row.' : ''));
    } catch (e) {
      status.textContent = '';
      fileError.textContent = `Cannot install ${jar.name}: ${e.message}`;
    } finally {
      installButton.disabled = false;
    }
    await reloadShowingErrors();
  }

  element.append(el('h1', {}, 'Bundles'),
    el('p', { class: 'hint' }, 'The OSGi bundles of this controller. Apps start, stop, update and uninstall '
      + 'without a restart of the controller.'),
    form, status, error, table.element);
  await reload();

  const refresh = async () => {
    if (!element.isConnected) return;   // the operator went to another page
    if (!busy.size && !element.querySelector('dialog[open]')) await reloadShowingErrors();
    setTimeout(refresh, REFRESH_MS);
  };
  setTimeout(refresh, REFRESH_MS);
}
