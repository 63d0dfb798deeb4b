#!/usr/bin/env bash
# heliograph dist [--out DIR] [--package-version VERSION] [--only tarball,deb,container]: the release
# artifacts of the built distribution: a versioned tarball, a Debian package and a container build
# context. Run by deploy/heliograph (which builds first if the sources changed and sets DIST and ROOT);
# the system tests run it directly.
set -euo pipefail

ROOT=${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
DIST=${DIST:-$ROOT/deploy/target/heliograph}
PACKAGE=$ROOT/deploy/src/package

usage() {
    cat <<EOF
Usage: heliograph dist [--out DIR] [--package-version VERSION] [--only tarball,deb,container]

Writes the release artifacts of the built distribution ($DIST) into DIR
(default deploy/target/release), replacing earlier ones:
  heliograph-VERSION.tar.gz        the relocatable distribution, in one folder heliograph-VERSION/:
                                   unpack anywhere and run heliograph-VERSION/bin/heliograph
  heliograph_DEBVERSION_amd64.deb  the Debian package: /usr/share/heliograph, /etc/heliograph,
                                   /var/lib/heliograph, /var/log/heliograph, the system user
                                   heliograph, heliograph.service and heliograph-zookeeper@.service
                                   (without sdk/, which only the tarball carries)
  container/                       a Docker build context: Dockerfile and heliograph.tar.gz
                                   (docker build -t heliograph DIR/container)

VERSION is the project's (the root pom's); a -SNAPSHOT version gets +UTCTIMESTAMP.gCOMMIT, so every
build of a snapshot is newer than the one before. The Debian version is VERSION with - written ~
(0.1.0-SNAPSHOT+... is 0.1.0~SNAPSHOT+..., which comes before the release 0.1.0).
--package-version sets VERSION; --only makes some of the artifacts (container needs the tarball
and makes it too).
EOF
}

die() {
    echo "heliograph dist: $*" >&2
    exit 1
}

out="$ROOT/deploy/target/release"
version=""
only="tarball,deb,container"
while (($#)); do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --out) (($# >= 2)) || die "--out needs a directory"; out=$2; shift 2 ;;
        --package-version) (($# >= 2)) || die "--package-version needs a version"; version=$2; shift 2 ;;
        --only) (($# >= 2)) || die "--only needs tarball, deb or container (comma-separated)"; only=$2; shift 2 ;;
        *) die "unknown option '$1' (dist --help)" ;;
    esac
done
wants() {
    [[ ",$only," == *",$1,"* ]]
}
for part in ${only//,/ }; do
    case "$part" in
        tarball | deb | container) ;;
        *) die "--only: '$part' is not tarball, deb or container" ;;
    esac
done
if wants deb; then
    command -v dpkg-deb >/dev/null || die "dpkg-deb not found: the Debian package is built on Debian or Ubuntu (--only tarball,container elsewhere)"
fi
[[ -f "$DIST/heliograph.jar" ]] || die "no built distribution in $DIST: deploy/heliograph build"

if [[ -z "$version" ]]; then
    version=$(sed -n '/<artifactId>heliograph<\/artifactId>/{n;s/.*<version>\(.*\)<\/version>.*/\1/p;q}' "$ROOT/pom.xml")
    [[ -n "$version" ]] || die "no version in $ROOT/pom.xml"
    if [[ $version == *-SNAPSHOT ]]; then
        commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || true)
        version="$version+$(date -u +%Y%m%d%H%M%S)${commit:+.g$commit}"
    fi
fi
# What a Debian upstream version allows (no epoch, no revision), so one string names every artifact.
[[ $version =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || die "version '$version': digits first, then letters, digits and . + ~ -"
deb_version=${version//-/\~}

mkdir -p "$out"
out=$(cd "$out" && pwd)
# Scripts lose their mode in the Maven build (resources are copied as plain files).
chmod 755 "$DIST"/bin/*

tarball="$out/heliograph-$version.tar.gz"
if wants tarball || wants container; then
    rm -f "$out"/heliograph-*.tar.gz
    echo "heliograph dist: $tarball" >&2
    # data/ is the runtime state of a controller run from the build tree, not part of a release.
    tar -C "$(dirname "$DIST")" --exclude="$(basename "$DIST")/data" --owner=0 --group=0 --numeric-owner \
        --sort=name --transform="s,^$(basename "$DIST"),heliograph-$version," -czf "$tarball" "$(basename "$DIST")"
    wants tarball && echo "$tarball"
fi

if wants container; then
    context="$out/container"
    rm -rf "$context"
    mkdir -p "$context"
    cp "$PACKAGE/docker/Dockerfile" "$context/"
    ln "$tarball" "$context/heliograph.tar.gz" 2>/dev/null || cp "$tarball" "$context/heliograph.tar.gz"
    if ! wants tarball; then
        rm -f "$tarball"
    fi
    echo "$context"
fi

if wants deb; then
    deb="$out/heliograph_${deb_version}_amd64.deb"
    rm -f "$out"/heliograph_*.deb
    echo "heliograph dist: $deb" >&2
    staging=$(mktemp -d "$out/.deb-XXXXXX")
    trap 'rm -rf "$staging"' EXIT
    home="$staging/usr/share/heliograph"
    mkdir -p "$home/bin" "$staging/etc/heliograph" "$staging/usr/bin" "$staging/usr/lib/systemd/system" \
        "$staging/usr/share/doc/heliograph" "$staging/DEBIAN"
    # The distribution without its etc/ (the conffiles of /etc/heliograph), data/ and sdk/; bin/ below.
    for part in "$DIST"/*; do
        case ${part##*/} in
            etc | data | sdk | bin) ;;
            *) cp -R "$part" "$home/" ;;
        esac
    done
    cp "$DIST"/bin/* "$PACKAGE/deb/heliograph-service" "$home/bin/"
    cp -R "$DIST/etc/." "$PACKAGE/deb/heliograph.env" "$PACKAGE/deb/zookeeper.env" "$staging/etc/heliograph/"
    # The launcher reads etc/ beside heliograph.jar: the administrator's files, through a link.
    ln -s /etc/heliograph "$home/etc"
    ln -s ../share/heliograph/bin/heliograph "$staging/usr/bin/heliograph"
    cp "$PACKAGE/deb/heliograph.service" "$PACKAGE/deb/heliograph-zookeeper@.service" "$staging/usr/lib/systemd/system/"
    cp "$PACKAGE/deb/README.Debian" "$staging/usr/share/doc/heliograph/"
    chmod -R u=rwX,go=rX "$staging"
    chmod 755 "$home/bin"/*
    installed_size=$(du -sk --exclude=DEBIAN "$staging" | cut -f1)
    sed -e "s/@VERSION@/$deb_version/" -e "s/@INSTALLED_SIZE@/$installed_size/" "$PACKAGE/deb/control" \
        >"$staging/DEBIAN/control"
    (cd "$staging" && find etc -type f | sort | sed 's,^,/,') >"$staging/DEBIAN/conffiles"
    install -m 755 "$PACKAGE/deb/postinst" "$PACKAGE/deb/prerm" "$PACKAGE/deb/postrm" "$staging/DEBIAN/"
    chmod 644 "$staging/DEBIAN/control" "$staging/DEBIAN/conffiles"
    # gzip: the jars are compressed already, and xz would spend a minute to gain little
    dpkg-deb --root-owner-group -Zgzip --build "$staging" "$deb" >/dev/null
    echo "$deb"
fi
