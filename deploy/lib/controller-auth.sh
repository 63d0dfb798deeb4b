# Sourced by the scripts that call a controller's REST API (deploy-app, shell): checks the URL and sets
# the array `auth` to curl's credential arguments. Expects controller, user, token and DIST set, and a
# die function.
controller_auth() {
    [[ "$controller" =~ ^https?:// ]] || die "--controller '$controller' must be an http:// or https:// URL"
    auth=()
    if [[ -n "$token" ]]; then
        auth=(-H "Authorization: Bearer $token")
    elif [[ -n "$user" ]]; then
        auth=(-u "$user")
    elif [[ "$controller" =~ ^https?://(localhost|127\.0\.0\.1)(:|/|$) && -r "$DIST/data/initial-credentials" ]]; then
        auth=(-u "admin:$(sed -n 's/^password=//p' "$DIST/data/initial-credentials")")
    else
        die "no credentials for $controller: --user USER:PASSWORD or --token TOKEN"
    fi
}
