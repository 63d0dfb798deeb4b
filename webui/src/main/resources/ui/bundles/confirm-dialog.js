// A modal confirmation (an HTML dialog) for what cannot be undone from the page. Cancel has the focus,
// and Escape cancels; resolves to true only when the operator presses the confirming button. With
// acknowledge (a sentence), the confirming button stays disabled until the operator ticks a box saying
// it: a forced confirmation, for what may break the controller, that a reflexive Enter cannot give.

import { el } from '/ui/dom.js';

export function confirmAction(parent, { title, message, confirm, acknowledge }) {
  const cancelButton = el('button', { type: 'submit', value: 'cancel', class: 'hg-confirm-cancel' }, 'Cancel');
  const confirmButton = el('button', { type: 'submit', value: 'confirm', class: 'hg-confirm-ok',
    disabled: Boolean(acknowledge) }, confirm);
  const tick = acknowledge ? el('input', { type: 'checkbox', id: 'hg-confirm-acknowledge', class: 'hg-confirm-acknowledge',
    onchange: () => { confirmButton.disabled = !tick.checked; } }) : null;
  const dialog = el('dialog', { class: 'hg-confirm', 'aria-labelledby': 'hg-confirm-title' },
    el('form', { method: 'dialog' },
      el('h2', { id: 'hg-confirm-title' }, title),
      el('p', { class: 'hg-confirm-message' }, message),
      tick ? el('p', { class: 'hg-confirm-forced' }, tick, ' ', el('label', { for: 'hg-confirm-acknowledge' }, acknowledge))
        : null,
      el('div', { class: 'hg-confirm-buttons' }, cancelButton, confirmButton)));
  parent.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'confirm' && (!tick || tick.checked));
    });
    dialog.showModal();
    cancelButton.focus();
  });
}
