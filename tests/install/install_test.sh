#!/usr/bin/env bash
# install_test.sh BUILD_DIR - cmake --install gives a working parscope: the
# binary, the runtime library, the headers, the pkg-config file; the
# installed parscope builds and runs a LOOP program against the installed
# runtime, and a C program links through pkg-config; the library exports
# only what the public headers declare (nm -D).
set -eu
build=$1 mpicc=${2:-mpicc} here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
for f in bin/parscope lib/libparscope.a lib/libparscope.so include/parscope/parscope.h include/parscope/loop.h \
         lib/pkgconfig/parscope.pc share/parscope/machines/sp2.ini share/parscope/workloads/fingerprint.loop; do
  [ -e "$tmp/prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
# libparscope.so exports exactly the functions and objects include/parscope/*.h declare
printf '#include <parscope/parscope.h>\n#include <parscope/loop.h>\n' > "$tmp/api.c"
gcc -I"$tmp/prefix/include" -aux-info "$tmp/api.aux" -c "$tmp/api.c" -o "$tmp/api.o"
gcc -I"$tmp/prefix/include" -E "$tmp/api.c" -o "$tmp/api.i"
nm -D --defined-only "$tmp/prefix/lib/libparscope.so" > "$tmp/nm.txt"
python3 - "$tmp/prefix/include/parscope/" "$tmp/api.aux" "$tmp/api.i" "$tmp/nm.txt" <<'PY'
import re, sys
inc, aux, pre, nm = sys.argv[1:]
# functions: gcc -aux-info lists every prototype with the header it is in
declared = {re.search(r"(\w+) \(", l.split("*/", 1)[1]).group(1)
            for l in open(aux) if l.startswith("/* " + inc)}
# objects: extern declarations in the preprocessed text of the public headers
text, keep = [], False
for l in open(pre):
    m = re.match(r'# \d+ "([^"]+)"', l)
    if m:
        keep = m.group(1).startswith(inc)
    elif keep:
        text.append(l)
declared |= set(re.findall(r"\bextern\s+[^;(]*?\b(\w+)\s*(?:\[[^]]*\])?\s*;", "".join(text)))
exported = {l.split()[-1].split("@")[0] for l in open(nm) if l.strip()}
extra, missing = sorted(exported - declared), sorted(declared - exported)
if extra:
    sys.exit("FAIL: libparscope.so exports symbols no public header declares: " + " ".join(extra))
if missing:
    sys.exit("FAIL: declared in include/parscope/ but not exported: " + " ".join(missing))
print("libparscope.so exports the %d symbols of include/parscope/" % len(exported))
PY
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
# installed machine models are found by name, wherever the command runs
mkdir -p "$tmp/elsewhere"
(cd "$tmp/elsewhere" && "$tmp/prefix/bin/parscope" predict psrs -m sp2 -n 1-16 -o p.json -q > table.txt)
[ "$(grep -c . "$tmp/elsewhere/table.txt")" = 16 ] || { echo "FAIL: predict -m sp2 -n 1-16 printed no 16 rows"; exit 1; }
python3 - "$tmp/elsewhere/p.json" "$tmp/prefix/share/parscope/machines/sp2.ini" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["points"]) == 16, len(d["points"])
f = d["points"][0]["machine"]["file"]
assert f == sys.argv[2], "the model came from %s, not the installed tree" % f
PY
for name in sp2.ini machines/sp2.ini t3e; do
  (cd "$tmp/elsewhere" && "$tmp/prefix/bin/parscope" predict psrs -m $name -n 2 -q > /dev/null) ||
    { echo "FAIL: predict -m $name from an installed tree"; exit 1; }
done
if (cd "$tmp/elsewhere" && "$tmp/prefix/bin/parscope" predict psrs -m sp9 -n 2 -q 2> err.txt); then
  echo "FAIL: -m sp9 accepted"; exit 1
fi
grep -q "models: meiko, ncube2, origin, paragon, sp, sp2, t3e" "$tmp/elsewhere/err.txt" || { echo "FAIL: -m sp9 message:"; cat "$tmp/elsewhere/err.txt"; exit 1; }
echo "install: 1 passed, 0 failed"
