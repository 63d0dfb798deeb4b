// The web UI's switches pages (registered by io.heliograph.webui.switches.SwitchesPage). The shell
// loads this module from /ui/pages/switches.js and passes what follows #/switches/ as rest:
//   #/switches                       the connected switches
//   #/switches/<dpid>                one switch, its ports
//   #/switches/<dpid>/<tab>          one switch, one of ports, flows, tables, groups, meters
// The parts are imported by their absolute address, as the shell serves them from /ui/switches/.

import { stylesheet } from '/ui/dom.js';
import { renderSwitchList } from '/ui/switches/switch-list.js';
import { renderSwitch } from '/ui/switches/switch-detail.js';

export async function render(element, api, rest = '') {
  stylesheet('/ui/switches/switches.css');
  const path = rest.replace(/^\/+|\/+$/g, '');
  if (!path) return renderSwitchList(element, api);
  const slash = path.indexOf('/');
  const dpid = slash < 0 ? path : path.slice(0, slash);
  const tab = slash < 0 ? '' : path.slice(slash + 1);
  return renderSwitch(element, api, dpid, tab);
}
