# common.sh - sourced by the emulate tests: PARSCOPE BINDIR RT_PROGRAM.
set -u
abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
PS=$(abspath "$1") BIN=$(abspath "$2") RT=$(abspath "$3")
NETCHECK=$BIN/emulate_netcheck
fails=0 passes=0

# build_in_tmp: the nodes see the host's files except /tmp, so a build under
# /tmp is out of their reach (status 0 when it is there)
build_in_tmp() {
    case "$(cd "$BIN" && pwd -P)/" in
    /tmp/*) return 0 ;;
    esac
    return 1
}

need_root() {
    if build_in_tmp; then
        echo "SKIP: the build folder $BIN is under /tmp, which every emulated node has to itself; build outside /tmp to run this test"
        exit 77
    fi
    if [ "$(id -u)" != 0 ]; then
        echo "SKIP: parscope emulate needs root (this test runs as $(id -un))"
        exit 77
    fi
    for t in ip tc; do
        command -v "$t" > /dev/null || { echo "SKIP: parscope emulate needs the '$t' tool (iproute2)"; exit 77; }
    done
}

# mkwork: a work directory, outside /tmp (every emulated node has a /tmp of
# its own), removed at the end; after need_root, which may skip the test
mkwork() {
    W=$(mktemp -d "$BIN/work.XXXXXX") || exit 1
    EXPECT_OUT=$W/out
    trap 'rm -rf "$W"' EXIT
    cd "$W" || exit 1
}

pass() { passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
finish() {
    echo "$passes checks passed, $fails failed"
    [ "$fails" -eq 0 ]
}

# expect STATUS PATTERN -- COMMAND... (output in $W/out)
. "$(dirname "${BASH_SOURCE[0]}")/../common/expect.sh"

# What the host shows of namespaces, links and mounts.
host_state() {
    ip netns list 2> /dev/null | sort
    ip -o link show | awk -F': ' '{print "link", $2}' | sort
    awk '{print "mount", $1, $2, $3}' /proc/mounts | sort
}

# The processes still alive of a run: named for it (ps-ID-...), or in one of
# the namespaces listed in NSFILE (readlink /proc/self/ns/* taken inside).
leftovers() {
    python3 - "$1" "$2" << 'PY'
import os, sys
rid, nsfile = sys.argv[1], sys.argv[2]
ns = set(l.strip() for l in open(nsfile) if l.strip()) if os.path.exists(nsfile) else set()
for p in os.listdir("/proc"):
    if not p.isdigit():
        continue
    try:
        comm = open("/proc/%s/comm" % p).read().strip()
    except OSError:
        continue
    hit = comm.startswith("ps-%s-" % rid)
    for k in ("net", "mnt", "uts", "ipc", "pid"):
        try:
            if os.readlink("/proc/%s/ns/%s" % (p, k)) in ns:
                hit = True
        except OSError:
            pass
    if hit:
        print(p, comm)
PY
}

# gone ID NSFILE WHAT: the run left no process (waits up to 15 s: the
# kernel ends a PID namespace's processes one by one)
gone() {
    local left i
    for i in $(seq 1 150); do
        left=$(leftovers "$1" "$2")
        [ -z "$left" ] && { pass; return 0; }
        sleep 0.1
    done
    fail "$3: processes of run $1 are still alive: $left"
    return 1
}

# same_state BEFORE WHAT: the host's namespaces, links and mounts are as in
# BEFORE (taken again for a few seconds: other users of the machine)
same_state() {
    local i
    for i in 1 2 3 4 5; do
        host_state > "$W/state.now"
        diff -q "$1" "$W/state.now" > /dev/null && { pass; return 0; }
        sleep 1
    done
    fail "$2: the host's namespaces, links or mounts changed:"
    diff "$1" "$W/state.now" | sed 's/^/    /' | head -20
    return 1
}

# What a command run inside the cluster records about itself.
RECORD='echo "$PARSCOPE_EMULATE" > id.txt; for k in net mnt uts ipc pid; do readlink /proc/self/ns/$k; done > ns.txt'
