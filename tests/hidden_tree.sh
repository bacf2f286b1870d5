# Sourced by the tests that run an installed twintile with the trees it was
# built from hidden (driver/check_install.sh, package/check_package.sh).

# skip_unless_hideable DIR: exits 77 (ctest's SKIP), saying why, where a
# tmpfs cannot be mounted over DIR in a new mount namespace (`unshare -rm`).
skip_unless_hideable() {
  if ! command -v unshare > /dev/null || ! unshare -rm sh -c "mount -t tmpfs none '$1'" 2> /dev/null; then
    echo "SKIP: the source tree cannot be hidden here (unshare -rm and a tmpfs mount over it were refused)"
    exit 77
  fi
}

# work_outside NAME DIR...: prints a new directory under $TMPDIR (else /tmp)
# that is in none of the DIRs, which hiding them leaves in sight.
work_outside() {
  local name=$1 tmp=${TMPDIR:-/tmp} dir
  shift
  for dir in "$@"; do
    case "$(cd "$tmp" && pwd)/" in "$dir"/*) tmp=/tmp ;; esac
  done
  mktemp -d "$tmp/$name.XXXXXX"
}
