#!/bin/bash
# golden.sh PARSCOPE_GEN - generated C of small programs against stored files
# (tests/lang/golden/NAME.loop -> NAME.c, one per variant where NAME.VARIANT.c
# exists), and the generator's notes on stderr against NAME.notes (none when
# there is no such file).  UPDATE=1 rewrites the stored files.
set -u
GEN=$1
cd "$(dirname "$0")/golden" || exit 1
fail=0
notes=$(mktemp)
trap 'rm -f "$notes"' EXIT
for loop in *.loop; do
    name=${loop%.loop}
    "$GEN" "$loop" -o - > /dev/null 2> "$notes" || { echo "$loop: gen failed"; fail=1; }
    if [ "${UPDATE:-0}" = 1 ] && [ -s "$notes" ]; then cp "$notes" "$name.notes"
    elif [ -e "$name.notes" ]; then
        diff -u "$name.notes" "$notes" || { echo "$loop: notes differ from $name.notes"; fail=1; }
    elif [ -s "$notes" ]; then
        echo "$loop: unexpected notes:"; cat "$notes"; fail=1
    fi
    for want in "$name".c "$name".*.c; do
        [ -e "$want" ] || continue
        variant=full
        case $want in "$name".*.c) variant=${want#"$name".}; variant=${variant%.c} ;; esac
        got=$("$GEN" "$loop" --variant "$variant" -o - 2> /dev/null) || { echo "$loop: gen failed"; fail=1; continue; }
        if [ "${UPDATE:-0}" = 1 ]; then printf '%s\n' "$got" > "$want"; continue; fi
        if ! diff -u "$want" <(printf '%s\n' "$got"); then echo "$loop ($variant): differs from $want"; fail=1; fi
    done
done
exit $fail
