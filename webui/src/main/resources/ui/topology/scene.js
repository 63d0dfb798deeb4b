// What the renderer and the hit tests need beyond the model and layout: the point grids, the links
// grouped by utilisation colour (one canvas path per colour), and the utilisation band of each switch,
// host and host badge that has one (-1: none, drawn in its role's colour).

import { PointGrid } from './point-grid.js';

/** Link colours by utilisation: unknown, then up to 30 %, 60 %, 85 % and above. */
export const UTILISATION_COLOURS = ['#a0aab4', '#2e9e4f', '#c9a927', '#e8772e', '#d63a3a'];
const UTILISATION_LIMITS = [0.3, 0.6, 0.85];

/** The index into UTILISATION_COLOURS for a link's utilisation (0..1, or null when not measured). */
export function utilisationBand(utilisation) {
  if (utilisation === null || utilisation === undefined || Number.isNaN(utilisation)) {
    return 0;
  }
  let band = 1;
  for (const limit of UTILISATION_LIMITS) {
    if (utilisation >= limit) {
      band++;
    }
  }
  return band;
}

export function buildScene(model, layout) {
  const extent = Math.max(layout.bounds.maxX - layout.bounds.minX, layout.bounds.maxY - layout.bounds.minY);
  // cells no smaller than a few switches, and no more than about 256 x 256 of them
  const switchGrid = new PointGrid(layout.x, layout.y, Math.max(60, extent / 256));
  const hostGrid = new PointGrid(layout.hostX, layout.hostY, Math.max(30, extent / 256));
  return { model, layout, switchGrid, hostGrid, ...colourBands(model) };
}

/**
 * The same scene with the model's utilisations as they are now (after applyUtilisation): a new object,
 * so that the link image is drawn again; grids and layout are shared.
 */
export function recolourScene(scene) {
  return { ...scene, ...colourBands(scene.model) };
}

function colourBands(model) {
  const bands = UTILISATION_COLOURS.map(() => []);
  for (const link of model.links) {
    bands[utilisationBand(link.utilisation)].push(link.index);
  }
  const switchBand = new Int8Array(model.switches.length).fill(-1);
  const badgeBand = new Int8Array(model.switches.length).fill(-1);
  const hostBand = new Int8Array(model.hosts.length).fill(-1);
  for (const s of model.switches) {
    if (s.utilisation !== null && s.utilisation !== undefined) {
      switchBand[s.index] = utilisationBand(s.utilisation);
    }
  }
  // a badge stands for its switch's hosts: it takes the busiest one's colour
  for (const h of model.hosts) {
    if (h.utilisation !== null && h.utilisation !== undefined) {
      hostBand[h.index] = utilisationBand(h.utilisation);
      if (h.switch >= 0) {
        badgeBand[h.switch] = Math.max(badgeBand[h.switch], hostBand[h.index]);
      }
    }
  }
  return { linksByBand: bands.map((b) => Int32Array.from(b)), switchBand, hostBand, badgeBand };
}
