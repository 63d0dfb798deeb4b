// A modal confirmation (an HTML dialog) for what cannot be undone from the page. Cancel has the focus,
// and Escape cancels; resolves to true only when the operator presses the confirming button.

import { el } from '/ui/dom.js';

export function confirmAction(parent, { title, message, confirm }) {
  const cancelButton = el('button', { type: 'submit', value: 'cancel', class: 'hg-confirm-cancel' }, 'Cancel');
  const confirmButton = el('button', { type: 'submit', value: 'confirm', class: 'hg-confirm-ok' }, confirm);
  const dialog = el('dialog', { class: 'hg-confirm', 'aria-labelledby': 'hg-confirm-title' },
    el('form', { method: 'dialog' },
      el('h2', { id: 'hg-confirm-title' }, title),
      el('p', { class: 'hg-confirm-message' }, message),
      el('div', { class: 'hg-confirm-buttons' }, cancelButton, confirmButton)));
  parent.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'confirm');
    });
    dialog.showModal();
    cancelButton.focus();
  });
}
