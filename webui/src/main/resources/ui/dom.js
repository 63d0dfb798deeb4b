// Small DOM helpers shared by the shell and the pages (pages import them as /ui/dom.js).

/** An element with attributes (a property when the name starts with '.', a listener with 'on') and children. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('.')) node[k.slice(1)] = v;
    else if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) node.append(child);
  }
  return node;
}

/** Adds the stylesheet at href to the document once, however many times a page renders. */
export function stylesheet(href) {
  if (!document.head.querySelector(`link[rel=stylesheet][href="${href}"]`)) {
    document.head.append(el('link', { rel: 'stylesheet', href }));
  }
}

/** A count of bytes (or of bytes per second with unit '/s') in B, KiB, MiB, GiB. */
export function bytes(n, unit = '') {
  if (n === undefined || n === null || Number.isNaN(n)) return '';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = Number(n);
  while (Math.abs(v) >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return (i === 0 ? String(Math.round(v)) : v.toFixed(v < 10 ? 2 : 1)) + ' ' + units[i] + unit;
}
