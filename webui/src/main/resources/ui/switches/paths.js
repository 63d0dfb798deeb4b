// Addresses the switches pages use: the UI's own (#/switches/<dpid>/<tab>) and the REST paths of a
// switch's resources and of the statistics app's. A datapath id keeps its colons in a path; anything
// else the operator typed is encoded.

const encode = (dpid) => encodeURIComponent(dpid).replace(/%3A/gi, ':');

/** The UI address of a switch, or of one of its tabs. */
export function switchAddress(dpid, tab) {
  return '#/switches/' + encode(dpid) + (tab ? '/' + tab : '');
}

/** GET /api/v1/switches/<dpid><rest>: the switch resources of the web bundle. */
export function switchApi(dpid, rest = '') {
  return '/api/v1/switches/' + encode(dpid) + rest;
}

/** GET /api/v1/stats/switches/<dpid><rest>: the statistics app's rates. */
export function statsApi(dpid, rest = '') {
  return '/api/v1/stats/switches/' + encode(dpid) + rest;
}
