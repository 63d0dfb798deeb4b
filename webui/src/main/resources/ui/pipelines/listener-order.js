// An editable order of listener names, first runs first. The operator drags an item onto another
// (HTML5 drag and drop: it lands before or after it, by which half it is dropped on) or presses the
// item's move-up and move-down buttons, which keyboards and screen readers reach. Items may only move
// within their own list. onChange(names) follows each move.

import { el } from '/ui/dom.js';

/** names with the item at from moved to index to (both indexes into names). */
export function moved(names, from, to) {
  const copy = [...names];
  const [name] = copy.splice(from, 1);
  copy.splice(to, 0, name);
  return copy;
}

export class ListenerOrder {
  constructor(type, onChange) {
    this.type = type;
    this.onChange = onChange;
    this.names = [];
    this.running = new Set();
    this.dragged = null;   // the index being dragged from this list, or null
    this.element = el('ol', { class: 'hg-listener-order', 'aria-label': `${type} listeners, first runs first` });
  }

  /** Shows names in this order; those not in running are marked as not running. */
  set(names, running) {
    this.names = [...names];
    this.running = new Set(running);
    this.draw();
  }

  /** Marks the item at index with a message (a refusal naming it), or clears every mark with index null. */
  mark(index, message) {
    [...this.element.children].forEach((li, i) => {
      li.classList.toggle('hg-refused', i === index);
      li.querySelector('.hg-listener-problem').textContent = i === index ? message : '';
    });
  }

  move(from, to, focus) {
    if (to < 0 || to >= this.names.length || from === to) return;
    this.names = moved(this.names, from, to);
    this.draw();
    if (focus) {
      const buttons = this.element.children[to].querySelectorAll('button');
      const preferred = focus === 'up' ? buttons[0] : buttons[1];
      (preferred.disabled ? [...buttons].find((b) => !b.disabled) || preferred : preferred).focus();
    }
    this.onChange(this.names);
  }

  draw() {
    const last = this.names.length - 1;
    this.element.replaceChildren(...this.names.map((name, i) => {
      const li = el('li', { class: 'hg-listener', draggable: 'true', 'data-name': name,
        ondragstart: (e) => this.dragStart(e, i, li), ondragend: () => this.dragEnd(),
        ondragover: (e) => this.dragOver(e, li), ondragleave: () => li.classList.remove('hg-drop-before', 'hg-drop-after'),
        ondrop: (e) => this.drop(e, i, li) },
      el('span', { class: 'hg-grip', 'aria-hidden': 'true' }, '⠿'),
      el('span', { class: 'hg-listener-name' }, name),
      this.running.has(name) ? null : el('span', { class: 'hint hg-not-running' }, 'not running'),
      el('span', { class: 'error hg-listener-problem' }),
      el('span', { class: 'hg-move' },
        el('button', { type: 'button', class: 'hg-move-up', 'aria-label': `Move ${name} up`, disabled: i === 0,
          onclick: () => this.move(i, i - 1, 'up') }, '↑'),
        el('button', { type: 'button', class: 'hg-move-down', 'aria-label': `Move ${name} down`, disabled: i === last,
          onclick: () => this.move(i, i + 1, 'down') }, '↓')));
      return li;
    }));
  }

  dragStart(event, index, li) {
    this.dragged = index;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', this.names[index]);
    li.classList.add('hg-dragging');
  }

  dragEnd() {
    this.dragged = null;
    for (const li of this.element.children) li.classList.remove('hg-dragging', 'hg-drop-before', 'hg-drop-after');
  }

  /** Whether a drop on li lands after it: the pointer is on its lower half. */
  static after(event, li) {
    const box = li.getBoundingClientRect();
    return event.clientY > box.top + box.height / 2;
  }

  dragOver(event, li) {
    if (this.dragged === null) return;   // something from elsewhere: not droppable here
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const after = ListenerOrder.after(event, li);
    li.classList.toggle('hg-drop-after', after);
    li.classList.toggle('hg-drop-before', !after);
  }

  drop(event, index, li) {
    if (this.dragged === null) return;
    event.preventDefault();
    const from = this.dragged;
    let to = index + (ListenerOrder.after(event, li) ? 1 : 0);
    if (from < to) to -= 1;   // the dragged item leaves its place first
    this.dragEnd();
    this.move(from, to);
  }
}
