# Shared by the bench/clue_*.sh scripts: find parscope, describe the machine.
PARSCOPE=${PARSCOPE:-$(command -v parscope || echo "$(dirname "$0")/../build/bin/parscope")}
[ -x "$PARSCOPE" ] || { echo "set PARSCOPE to the parscope binary" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1} OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
machine() {
  echo "machine: $(uname -n), $(uname -sr), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
  echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min)"
}
