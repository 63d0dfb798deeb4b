// The line above each of the switches pages' tables: a Refresh button and what was last read, or
// why it could not be read (the API's message, in the error colour).

import { el } from '/ui/dom.js';

export class StatusBar {
  /** refresh() is called by the button. */
  constructor(refresh) {
    this.text = el('span', { class: 'hint hg-status', role: 'status' });
    this.button = el('button', { type: 'button', class: 'hg-refresh', onclick: () => refresh() }, 'Refresh');
    this.element = el('div', { class: 'hg-toolbar' }, this.button, this.text);
  }

  ok(text) {
    this.text.textContent = text;
    this.text.className = 'hint hg-status';
  }

  failed(text) {
    this.text.textContent = text;
    this.text.className = 'error hg-status';
  }
}
