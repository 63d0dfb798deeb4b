// The bundles resource (/api/v1/bundles) as the bundles page uses it. JSON calls go through the shell's
// api; uploads (a multipart body with the jar as the field 'file') go through fetch with the session's
// bearer token, since the shell's api sends JSON only. Errors carry the API's status, field and message,
// as the shell's do.

const BUNDLES = '/api/v1/bundles';
const TOKEN = 'heliograph.token';
/** States a bundle passes through; anything else is where an operation left it. */
const TRANSIENT = new Set(['STARTING', 'STOPPING']);
const SETTLE_TIMEOUT_MS = 30000;

class UploadError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.field = body && body.field;
  }
}

export class BundleClient {
  constructor(api) {
    this.api = api;
  }

  list() {
    return this.api.get(BUNDLES);
  }

  start(id) {
    return this.api.post(`${BUNDLES}/${id}/start`);
  }

  /** With force, a platform bundle too (the API refuses one without it, with 409 naming 'force'). */
  stop(id, force = false) {
    return this.api.post(`${BUNDLES}/${id}/stop${force ? '?force=true' : ''}`);
  }

  uninstall(id, force = false) {
    return this.api.delete(`${BUNDLES}/${id}${force ? '?force=true' : ''}`);
  }

  /**
   * Installs the jar file (a File from a file input) and, if start, starts it (the controller uninstalls
   * a jar that cannot start and refuses the upload); resolves to the new bundle.
   */
  install(file, start) {
    return this.upload('POST', `${BUNDLES}?start=${start ? 'true' : 'false'}`, file);
  }

  /** Replaces bundle id's jar with file (same symbolic name); resolves to the updated bundle. */
  update(id, file) {
    return this.upload('PUT', `${BUNDLES}/${id}`, file);
  }

  async upload(method, path, file) {
    const form = new FormData();
    form.append('file', file, file.name);
    const response = await fetch(path, { method, body: form, headers: {
      'Authorization': 'Bearer ' + sessionStorage.getItem(TOKEN),
      'X-Requested-With': 'heliograph-ui', 'Accept': 'application/json' } });
    const text = await response.text();
    let body = text;
    try { body = text ? JSON.parse(text) : null; } catch (e) { /* not JSON: a proxy's page, say */ }
    if (response.status === 401) {
      // the session ended: a call through the shell's api shows the login form again
      this.api.get(BUNDLES).catch(() => {});
    }
    if (!response.ok) throw new UploadError(response.status, body);
    return body;
  }

  /**
   * Bundle id once it is no longer STARTING or STOPPING, asked again until then (sooner at first,
   * then every second); null once it is gone (uninstalled). After SETTLE_TIMEOUT_MS the bundle as it
   * is then, with settled false: a lazily activated bundle stays STARTING until first used.
   */
  async settled(id) {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
      let bundle;
      try {
        bundle = await this.api.get(`${BUNDLES}/${id}`);
      } catch (e) {
        if (e.status === 404) return null;
        throw e;
      }
      if (!TRANSIENT.has(bundle.state)) return { bundle, settled: true };
      if (Date.now() > deadline) return { bundle, settled: false };
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
