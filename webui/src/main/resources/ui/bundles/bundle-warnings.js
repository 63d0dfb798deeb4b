// What stopping, updating or uninstalling a platform bundle does to the controller and to this UI, for
// the confirmation the bundles page asks first. The API marks every platform bundle (platform: true:
// the framework and the distribution's bundles/); the ones named here say what in particular they take
// down, the rest (Guava, Netty, SCR...) get the general warning. Apps come and go without harm.

const PLATFORM = {
  'io.heliograph.webui': 'serves this web UI and the REST API: without it the UI goes down, and only the '
      + "controller's console can start it again.",
  'io.heliograph.core': "is the controller's core: the listener pipelines, the switch service and every app stop "
      + 'with it, so the UI loses what it shows (switches, pipelines, the apps\' pages) until the core is started again.',
  'io.heliograph.openflow': 'holds the OpenFlow connections: every switch disconnects from this controller.',
};

const GENERAL = 'is part of the controller\'s platform, not an app: the controller and its apps may stop working '
    + 'without it, and only a restart of the controller may bring them back.';

/** Why changing this bundle hurts, or undefined for an app. */
export function platformRole(bundle) {
  return PLATFORM[bundle.symbolicName] || (bundle.platform ? GENERAL : undefined);
}

/** What the operator ticks before stopping or uninstalling a platform bundle. */
export const ACKNOWLEDGE = 'I understand the controller may stop working';

/** "bundle 28 (io.heliograph.learningswitch)": how the page names a bundle in messages. */
export function describe(bundle) {
  return `bundle ${bundle.id} (${bundle.symbolicName})`;
}
