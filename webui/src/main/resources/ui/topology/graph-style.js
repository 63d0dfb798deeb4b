// The graph's own styles, added to the document once, so the component needs no stylesheet link.

const STYLE_ID = 'hg-topology-style';

const CSS = `
.hg-topology { display: flex; flex-direction: column; width: 100%; height: 100%; min-height: 320px;
  font: 13px/1.4 system-ui, sans-serif; color: #1d2b3a; }
.hg-topology-toolbar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 6px 0; }
.hg-topology-search { flex: 0 1 22em; padding: 4px 6px; }
.hg-topology-matches { color: #44515e; min-width: 5em; }
.hg-topology-legend { display: flex; gap: 10px; margin-left: auto; color: #44515e; }
.hg-topology-roles { margin-left: auto; }
.hg-topology-roles + .hg-topology-legend { margin-left: 0; }
.hg-topology-legend-title { font-weight: 600; }
.hg-topology-role-key::before, .hg-topology-host-key::before { content: ''; display: inline-block; width: 10px;
  height: 10px; margin-right: 4px; vertical-align: -1px; border-radius: 50%; background: var(--role-colour); }
.hg-topology-host-key::before { width: 6px; height: 6px; border-radius: 0; vertical-align: 1px; }
.hg-topology-legend-key::before { content: ''; display: inline-block; width: 18px; height: 3px;
  margin-right: 4px; vertical-align: middle; background: var(--band-colour); }
.hg-topology-stage { position: relative; flex: 1; min-height: 0; overflow: hidden;
  border: 1px solid #d5dbe1; background: #fbfcfd; }
.hg-topology-canvas { display: block; touch-action: none; cursor: grab; outline: none; }
.hg-topology-canvas:active { cursor: grabbing; }
.hg-topology-tooltip { position: absolute; pointer-events: none; padding: 3px 6px; border-radius: 3px;
  background: rgba(29, 43, 58, 0.9); color: #fff; white-space: nowrap; }
.hg-topology-details { position: absolute; top: 8px; right: 8px; width: 22em; max-height: calc(100% - 16px);
  overflow: auto; padding: 8px 12px; background: #fff; border: 1px solid #d5dbe1;
  box-shadow: 0 2px 8px rgba(0, 0, 0, 0.12); }
.hg-topology-details-title { margin: 0 1.5em 6px 0; font-size: 14px; overflow-wrap: anywhere; }
.hg-topology-details-rows { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0; }
.hg-topology-details-rows dt { color: #44515e; }
.hg-topology-details-rows dd { margin: 0; overflow-wrap: anywhere; }
.hg-topology-close { position: absolute; top: 4px; right: 6px; border: none; background: none;
  font-size: 18px; cursor: pointer; }
`;

export function installStyle(doc) {
  if (!doc.getElementById(STYLE_ID)) {
    const style = doc.createElement('style');
    style.id = STYLE_ID;
    style.textContent = CSS;
    doc.head.append(style);
  }
}
