#!/usr/bin/env bash
# cli_test.sh PARSCOPE BINDIR RT_PROGRAM - parscope emulate's command line:
# every bad option exits 2 naming the option; without the privilege or the
# tools it says so and exits 2; the agent refuses to run outside a cluster.
. "$(dirname "$0")/common.sh"
mkwork

expect 0 "^usage: parscope emulate -N NODES" -- "$PS" emulate --help
expect 2 "emulate: -N NODES is required" -- "$PS" emulate -- true
expect 2 "emulate: -N: '0' is not a node count 1..64" -- "$PS" emulate -N 0 -- true
expect 2 "emulate: -N: '65' is not a node count" -- "$PS" emulate -N 65 -- true
expect 2 "emulate: -N: 'two' is not a node count" -- "$PS" emulate -N two -- true
expect 2 "emulate: --link: 'fast' is not a rate" -- "$PS" emulate -N 2 --link fast -- true
expect 2 "emulate: --link: '1bit' is 1 bit/s, below the slowest rate, 8kbit" -- "$PS" emulate -N 2 --link 1bit -- true
expect 2 "emulate: --link: '1tbit' is 1e\+12 bit/s, above the fastest rate, 100gbit" -- "$PS" emulate -N 2 --link 1tbit -- true
expect 2 "emulate: --burst: '100' is 100 bytes, below the smallest bucket, 2048 bytes" -- "$PS" emulate -N 2 --link 10mbit --burst 100 -- true
expect 2 "emulate: --burst: '1x' is not a byte count" -- "$PS" emulate -N 2 --link 10mbit --burst 1x -- true
expect 2 "emulate: --burst: needs --link" -- "$PS" emulate -N 2 --burst 16k -- true
expect 2 "emulate: --map: 'spiral' is not round-robin or block" -- "$PS" emulate -N 2 --map spiral -- true
expect 2 "emulate: --cores-per-node: '0' is not a count" -- "$PS" emulate -N 2 --cores-per-node 0 -- true
expect 2 "emulate: --cores-per-node 4096: this process may use only [0-9]+ core" -- "$PS" emulate -N 2 --cores-per-node 4096 -- true
expect 2 "emulate: no COMMAND given" -- "$PS" emulate -N 2
expect 2 "emulate: no COMMAND given" -- "$PS" emulate -N 2 --
expect 2 "emulate: unknown option '--bogus'" -- "$PS" emulate -N 2 --bogus -- true
expect 2 "emulate: option '--link' needs a value" -- "$PS" emulate -N 2 --link
# the agent outside a cluster
expect 255 "PARSCOPE_EMULATE_NODES is not set: the agent works only inside parscope emulate" -- \
    env -u PARSCOPE_EMULATE_NODES "$PS" __node node1 true
expect 255 "usage: parscope-node \[-x\] HOST COMMAND" -- "$PS" __node -x
expect 255 "no command to run on node1" -- "$PS" __node node1

if [ "$(id -u)" != 0 ]; then
    expect 2 "emulate needs root \(CAP_SYS_ADMIN and CAP_NET_ADMIN\)" -- "$PS" emulate -N 2 -- true
else
    # root without the capabilities, and an unprivileged user
    if command -v setpriv > /dev/null; then
        expect 2 "emulate needs root \(CAP_SYS_ADMIN and CAP_NET_ADMIN\)" -- \
            setpriv --bounding-set=-sys_admin "$PS" emulate -N 2 -- true
        expect 2 "emulate needs root" -- setpriv --reuid=65534 --regid=65534 --clear-groups "$PS" emulate -N 2 -- true
    else
        echo "note: no setpriv; the unprivileged cases are not run"
    fi
    expect 2 "emulate needs the 'ip' tool on PATH" -- env PATH=/nonexistent "$PS" emulate -N 2 -- true
    mkdir -p only-ip && ln -sf "$(command -v ip)" only-ip/ip
    expect 2 "--link needs the 'tc' tool on PATH" -- env PATH="$W/only-ip" "$PS" emulate -N 2 --link 10mbit -- true
    expect 2 "the current directory /tmp is under /tmp" -- sh -c "cd /tmp && exec '$PS' emulate -N 2 -- true"
    # inside a cluster: an unknown host, and the anchor PIDs checked (the nodes need this
    # binary, out of their reach under /tmp: parscope emulate refuses to start there, checked above)
    if build_in_tmp; then
        echo "note: the build folder is under /tmp; the four checks inside a cluster are not run"
    else
        expect 255 "node7: no such node in this emulated cluster" -- "$PS" emulate -q -N 2 -- "$PS" __node -x node7 true
        expect 255 "process 1 is not the node's anchor" -- "$PS" emulate -q -N 2 -- \
            sh -c 'PARSCOPE_EMULATE_NODES=node0/198.18.0.1/1 exec "$0" __node node0 true' "$PS"
        expect 0 "^node1$" -- "$PS" emulate -q -N 2 -- "$PS" __node -x 198.18.0.2 hostname
        expect 0 "^node0$" -- "$PS" emulate -q -N 2 -- "$PS" __node node0 hostname
        # nodes x cores per node above the processors: said even with -q, and a job of more ranks
        # than the processors is marked oversubscribed though each node holds one rank
        if command -v taskset > /dev/null; then
            expect 0 "emulate: WARNING: oversubscribed: 2 nodes x 1 core = 2 cores on the 1 processor this process may use.*time-shar" -- \
                taskset -c 0 "$PS" emulate -q -N 2 -- true
            expect 0 "WARNING: oversubscribed: 2 ranks on 2 nodes that share 1 processor of one machine" -- \
                taskset -c 0 "$PS" emulate -q -N 2 -- "$PS" run "$RT" -n 2
        fi
        expect 0 "" -- "$PS" emulate -q -N 1 -- "$PS" run "$RT" -n 1
        if grep -q "oversubscribed" "$EXPECT_OUT"; then fail "one node on its own cores said oversubscribed"; else pass; fi
    fi
fi
finish
