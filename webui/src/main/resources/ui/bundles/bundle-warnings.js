// What stopping, updating or uninstalling a platform bundle does to the controller and to this UI, for
// the confirmation the bundles page asks first. Apps (everything else) come and go without harm.

const PLATFORM = {
  'io.heliograph.webui': 'serves this web UI and the REST API: without it the UI goes down, and only the '
      + "controller's console can start it again.",
  'io.heliograph.core': "is the controller's core: the listener pipelines, the switch service and every app stop "
      + 'with it, so the UI loses what it shows (switches, pipelines, the apps\' pages) until the core is started again.',
  'io.heliograph.openflow': 'holds the OpenFlow connections: every switch disconnects from this controller.',
};

/** Why changing this bundle hurts, or undefined for an app. */
export function platformRole(bundle) {
  return PLATFORM[bundle.symbolicName];
}

/** "bundle 28 (io.heliograph.learningswitch)": how the page names a bundle in messages. */
export function describe(bundle) {
  return `bundle ${bundle.id} (${bundle.symbolicName})`;
}
