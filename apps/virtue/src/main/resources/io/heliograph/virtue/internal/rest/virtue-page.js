// The web UI's Virtue page, contributed by the Virtue app (io.heliograph.virtue.internal.rest.VirtuePage,
// served at /ui/pages/virtue.js; its parts beside it at /ui/pages/virtue/<name>.js). #/virtue lists the
// experiments; #/virtue/<id> also explores one (time slider, coloured topology, resource table, charts)
// and its optimisations. Each part is its own module:
//   virtue-experiments.js    the list, start/stop/delete, a new experiment from an EDF file
//   virtue-explorer.js       the explorer; virtue-snapshots.js fetches its samples
//   virtue-topology.js       an EDF as the topology graph's model, a sample as its colours
//   virtue-resources.js      the table's rows at one instant, and which of them a region holds
//   virtue-optimisations.js  optimisations and the before/after comparison
//   virtue-format.js         numbers and times as the page writes them

import { el, stylesheet } from '/ui/dom.js';
import { ExperimentList } from './virtue/virtue-experiments.js';
import { Explorer } from './virtue/virtue-explorer.js';
import { Optimisations } from './virtue/virtue-optimisations.js';

export async function render(element, api, rest) {
  stylesheet(new URL('./virtue/virtue.css', import.meta.url).pathname);
  const id = rest ? rest.split('/')[0] : '';
  let explorer = null;
  const list = new ExperimentList(api, {
    selected: id || null,
    onChange: ({ created, deleted } = {}) => {
      if (created?.id) {
        location.hash = `#/virtue/${encodeURIComponent(created.id)}`;
      } else if (deleted && deleted === id) {
        location.hash = '#/virtue'; // the explored experiment is gone: back to the list alone
      } else if (explorer) {
        explorer.refreshFacts();
      }
    },
  });
  element.append(el('h1', {}, 'Virtue'), list.element);
  const listed = await list.load();
  if (!id) {
    element.append(el('p', { class: 'hint' }, 'Open an experiment to explore its run and optimise its placement.'));
    return;
  }
  if (listed && !listed.some((e) => e.id === id)) {
    element.append(el('p', { class: 'error virtue-unknown' }, `No experiment ${id}.`));
    return;
  }
  explorer = new Explorer(api, id);
  const optimisations = new Optimisations(api, id, explorer);
  element.append(explorer.element, optimisations.element);
  // each part shows its own errors; one failing leaves the other working
  await Promise.allSettled([explorer.load(), optimisations.load()]);
}
