#!/usr/bin/env bash
# install_test.sh BUILD_DIR - cmake --install gives a working parscope: the
# binary, the runtime library, the headers, the pkg-config file; the
# installed parscope builds and runs a LOOP program against the installed
# runtime, and a C program links through pkg-config.
set -eu
build=$1 mpicc=${2:-mpicc} here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
for f in bin/parscope lib/libparscope.a lib/libparscope.so include/parscope/parscope.h include/parscope/loop.h \
         lib/pkgconfig/parscope.pc share/parscope/machines/sp2.ini share/parscope/workloads/fingerprint.loop; do
  [ -e "$tmp/prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
export XDG_CACHE_HOME=$tmp/cache
"$tmp/prefix/bin/parscope" build "$here/hello.loop" -o "$tmp/hello"
"${PS_MPIEXEC:-mpiexec}" -n 3 "$tmp/hello" --quiet --trace "$tmp/t.pst"
"$tmp/prefix/bin/parscope" run "$here/hello.loop" -n 3 -q -o "$tmp/r.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['sheet']['messages_sent']==9, d['sheet']" "$tmp/r.json"
cat > "$tmp/direct.c" <<'C'
#include <parscope/parscope.h>
int main(int argc, char **argv)
{
    ps_set_args(&argc, &argv);
    ps_init(0);
    if (ps_size() > 1) {
        if (ps_rank() == 0) ps_send(NULL, 8, 1, 1, PS_C_USER);
        if (ps_rank() == 1) ps_recv(NULL, 8, 0, 1, PS_C_USER);
    }
    ps_finalize();
    return 0;
}
C
"$mpicc" -o "$tmp/direct" "$tmp/direct.c" $(PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig pkg-config --cflags --libs parscope) -Wl,-rpath,"$tmp/prefix/lib"
"${PS_MPIEXEC:-mpiexec}" -n 2 "$tmp/direct" | grep -q "Messages sent / received:    1 / 1"
echo "install: 1 passed, 0 failed"
